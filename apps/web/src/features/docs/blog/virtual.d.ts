declare module "virtual:blog/posts" {
  const posts: import("./posts.ts").BlogPosts;
  export default posts;
}

declare module "virtual:blog/content" {
  type MdxModule = import("../components/docs-layout.tsx").MdxModule;
  /** Modules available synchronously (prerendering). */
  export const loaded: Record<string, MdxModule>;
  /** One lazy chunk per post (browser). */
  export const loaders: Record<string, () => Promise<MdxModule>>;
}
