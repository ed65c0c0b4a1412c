export declare const RELEASE_NODE_VERSION: string
export declare function releaseNodeDir(platform: string, env?: NodeJS.ProcessEnv): string
