/**
 * pab in an OpenAI-style chat-completions tool loop.
 *
 * @module
 */
export {
  answerToolCalls,
  type ChatCustomToolCall,
  type ChatFunctionToolCall,
  type ChatMessage,
  type ChatToolCall,
  type ChatToolMessage,
  recordMessage,
} from "./answer_tool_calls.ts";
