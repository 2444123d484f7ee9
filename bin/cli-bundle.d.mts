/** See cli-bundle.mjs: the URL of the bundled `cli/main.ts` of `root` (built now, or earlier), or why it cannot be built. */
export function bundledCli(root?: string): Promise<{ url: string; built: boolean } | { error: string }>;
