/**
 * The MCP SDK's client over stdio, for `pab generate --server`. Loaded only
 * through `loadMcpClient()` (adapters/cli/mcp/mcp_sdk.ts), never by an `import`
 * with a literal specifier, so that no other command resolves the SDK.
 *
 * @module
 */
export { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
export { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
