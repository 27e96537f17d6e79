// The model parameters a call can carry, as data: the keys a request object (OpenAI chat
// and Responses, Anthropic messages, the AI SDK's call settings) sends them under, and the
// span attributes the tracing conventions record them in. Pure and client-safe.

/**
 * Keys of a request object that are parameters of the call, not its conversation or tools,
 * in the order they are shown (stored JSON keeps no order: PostgreSQL's jsonb sorts keys).
 */
export const REQUEST_PARAMETERS: readonly string[] = [
  'model',
  'temperature',
  'top_p',
  'topP',
  'top_k',
  'topK',
  'max_tokens',
  'maxTokens',
  'max_completion_tokens',
  'max_output_tokens',
  'maxOutputTokens',
  'stop',
  'stop_sequences',
  'stopSequences',
  'seed',
  'n',
  'presence_penalty',
  'presencePenalty',
  'frequency_penalty',
  'frequencyPenalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'reasoning',
  'reasoning_effort',
  'thinking',
  'verbosity',
  'response_format',
  'responseFormat',
  'tool_choice',
  'toolChoice',
  'parallel_tool_calls',
  'function_call',
  'max_tool_calls',
  'modalities',
  'stream',
  'stream_options',
  'service_tier',
  'store',
  'truncation',
  'previous_response_id',
  'user',
  'metadata',
  'maxRetries',
  'providerOptions',
];

export const REQUEST_PARAMETER_KEYS: ReadonlySet<string> = new Set(REQUEST_PARAMETERS);

/** Keys of a request object that list the tools offered to the model. */
export const REQUEST_TOOL_KEYS = ['tools', 'functions'] as const;

/**
 * Where a span's metadata records parameters. `prefix`: every key under it is one, named
 * by the rest of the key; `key` + `as`: one key, one parameter; `key` + `spread`: one key
 * holding an object (or its JSON text) whose every entry is one.
 */
export type MetadataParameterSource = { prefix: string } | { key: string; as: string } | { key: string; spread: true };

/** In priority order: when two sources name the same parameter, the first one is shown. */
export const METADATA_PARAMETER_SOURCES: readonly MetadataParameterSource[] = [
  // GenAI semantic conventions (and OpenLLMetry, and the AI SDK's GenAI copies).
  { prefix: 'gen_ai.request.' },
  // OpenInference: the model and its invocation parameters as JSON text.
  { key: 'llm.model_name', as: 'model' },
  { key: 'llm.invocation_parameters', spread: true },
  // Langfuse: the generation's model and model parameters.
  { key: 'langfuse.observation.model.name', as: 'model' },
  { key: 'langfuse.observation.model.parameters', spread: true },
  // The AI SDK: call settings and the tool choice (left in metadata when GenAI gave the input).
  { key: 'ai.model.id', as: 'model' },
  { prefix: 'ai.settings.' },
  { key: 'ai.prompt.toolChoice', as: 'toolChoice' },
  // OpenLLMetry's own names for what GenAI has no attribute for.
  { key: 'llm.top_k', as: 'top_k' },
  { key: 'llm.frequency_penalty', as: 'frequency_penalty' },
  { key: 'llm.presence_penalty', as: 'presence_penalty' },
  { key: 'llm.chat.stop_sequences', as: 'stop_sequences' },
  { key: 'llm.is_streaming', as: 'stream' },
];
