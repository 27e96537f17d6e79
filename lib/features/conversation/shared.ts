// lib/features/conversation: what the browser may import too (types and pure helpers, no server module).
export { type Message, type Part, type Side, toConversation } from './parse';
export { previewOf } from './preview';
export { type Parameter, parameterText, requestDetails, type RequestDetails, type ToolDefinition } from './request';
