// Types of install-node.mjs, which is plain JavaScript because it runs before `npm ci`.
export declare const NODE_RANGES: Record<22 | 24, string>
export declare const TOOLS_DIR: string
export declare function toolsNodeBin(major: 22 | 24): string
export declare function installMissingNodes(majors?: Array<22 | 24>, log?: (line: string) => void): Array<22 | 24>
