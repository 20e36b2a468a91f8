CREATE TABLE "feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"model" text,
	"description" text NOT NULL,
	"contact" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"locale" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"replied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "function_tools" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"org_id" text NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"parameters" text NOT NULL,
	"example_input" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_servers" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"org_id" text NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"transport" text NOT NULL,
	"auth_type" text NOT NULL,
	"username" text,
	"header_name" text,
	"token_sealed" text,
	"password_sealed" text,
	"timeout_ms" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'disconnected' NOT NULL,
	"last_error" text,
	"last_connected_at" timestamp with time zone,
	"tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tools_synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"details" jsonb NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"reject_reason" text,
	"created_by" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "riddle_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"riddle_id" text NOT NULL,
	"org_id" text NOT NULL,
	"project_id" text NOT NULL,
	"request_id" text NOT NULL,
	"prompt" text NOT NULL,
	"answer" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"passed" boolean DEFAULT false NOT NULL,
	"checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"billed" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "riddle_solves" (
	"user_id" text NOT NULL,
	"riddle_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"solved_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"claim_org_id" text,
	"voucher_id" text,
	CONSTRAINT "riddle_solves_user_id_riddle_id_pk" PRIMARY KEY("user_id","riddle_id")
);
--> statement-breakpoint
CREATE TABLE "riddles" (
	"id" text PRIMARY KEY NOT NULL,
	"difficulty" text NOT NULL,
	"position" integer NOT NULL,
	"model" text NOT NULL,
	"max_tokens" integer NOT NULL,
	"response_format" text NOT NULL,
	"content" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"reward" jsonb NOT NULL,
	"voucher_days" integer NOT NULL,
	"solutions" jsonb NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_leads" (
	"id" text PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"company" text NOT NULL,
	"industry" text NOT NULL,
	"stage" text NOT NULL,
	"enterprise_certified" boolean NOT NULL,
	"organization_id" text,
	"tier5" boolean DEFAULT false NOT NULL,
	"expected_tpm" bigint,
	"background" text NOT NULL,
	"problem" text NOT NULL,
	"additional_info" text,
	"locale" text NOT NULL,
	"user_id" text,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_memories" (
	"org_id" text NOT NULL,
	"project_id" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_memories_org_id_project_id_key_pk" PRIMARY KEY("org_id","project_id","key")
);
--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "after" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "suspend_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "function_tools" ADD CONSTRAINT "function_tools_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "function_tools" ADD CONSTRAINT "function_tools_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_verifications" ADD CONSTRAINT "org_verifications_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riddle_attempts" ADD CONSTRAINT "riddle_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riddle_attempts" ADD CONSTRAINT "riddle_attempts_riddle_id_riddles_id_fk" FOREIGN KEY ("riddle_id") REFERENCES "public"."riddles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riddle_solves" ADD CONSTRAINT "riddle_solves_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riddle_solves" ADD CONSTRAINT "riddle_solves_riddle_id_riddles_id_fk" FOREIGN KEY ("riddle_id") REFERENCES "public"."riddles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_memories" ADD CONSTRAINT "tool_memories_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_org_time_idx" ON "feedback" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "feedback_status_time_idx" ON "feedback" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "function_tools_owner_name_idx" ON "function_tools" USING btree ("user_id","project_id","name");--> statement-breakpoint
CREATE INDEX "mcp_servers_owner_idx" ON "mcp_servers" USING btree ("user_id","project_id");--> statement-breakpoint
CREATE INDEX "org_verifications_org_idx" ON "org_verifications" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "org_verifications_pending_uq" ON "org_verifications" USING btree ("org_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "org_verifications_pending_idx" ON "org_verifications" USING btree ("created_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "riddle_attempts_user_idx" ON "riddle_attempts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "riddle_attempts_riddle_idx" ON "riddle_attempts" USING btree ("user_id","riddle_id","created_at");--> statement-breakpoint
CREATE INDEX "riddles_track_idx" ON "riddles" USING btree ("difficulty","position");--> statement-breakpoint
CREATE INDEX "sales_leads_status_time_idx" ON "sales_leads" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "request_bills_time_brin" ON "request_bills" USING brin ("created_at");