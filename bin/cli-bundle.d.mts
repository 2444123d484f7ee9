/** See cli-bundle.mjs: the URL of the bundled `cli/main.ts` of `root` (built now, or earlier and unchanged), the digest of what runs and how it was checked; or why it cannot be built. */
export function bundledCli(
  root?: string,
  options?: { verify?: boolean },
): Promise<{ url: string; built: boolean; sha256: string; checked: 'built' | 'recorded'; replaced?: string } | { error: string; replaced?: string }>;
