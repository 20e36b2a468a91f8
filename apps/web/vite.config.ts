import mdx from "@mdx-js/rollup";
import { reactRouter } from "@react-router/dev/vite";
import rehypeSlug from "rehype-slug";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkMdxFrontmatter from "remark-mdx-frontmatter";
import { defineConfig } from "vite";
import { blogPlugin } from "./src/features/docs/blog/pipeline/vite-plugin.ts";
import { rehypeDocsCode, rehypeDocsToc } from "./src/features/docs/pipeline/mdx-plugins.ts";
import { docsPlugin } from "./src/features/docs/pipeline/vite-plugin.ts";
import { precompress } from "./vite-plugins/precompress.ts";

export default defineConfig({
  plugins: [
    {
      enforce: "pre",
      ...mdx({
        remarkPlugins: [remarkGfm, remarkFrontmatter, [remarkMdxFrontmatter, { name: "frontmatter" }]],
        rehypePlugins: [rehypeSlug, rehypeDocsToc, rehypeDocsCode],
      }),
    },
    docsPlugin(),
    blogPlugin(),
    reactRouter(),
    precompress(),
  ],
  server: { proxy: { "/api": "http://localhost:3000", "/v1": "http://localhost:3000" } },
});
