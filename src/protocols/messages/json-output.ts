/**
 * A Chat/Responses client's JSON output request, as Anthropic can take it.
 *
 * A schema Anthropic's subset expresses goes to constrained decoding (`output_config.format`).
 * Anthropic has no open JSON mode, so `json_object`, and a schema that fitting would narrow
 * (output-schema.ts), are asked for in words instead: a system instruction, the latter carrying
 * the client's schema as sent. The answer is then not enforced, but it is not bent to a schema
 * the client did not write.
 */
import type { JSONOutputFormat } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ResponseFormat } from '../hub.js';
import { fitOutputSchema } from './output-schema.js';

export const JSON_OBJECT_INSTRUCTION = 'Respond only with a single valid JSON object. Do not add any text before or after it.';

export interface JsonOutput {
  /** System text to append. */
  instruction?: string;
  /** `output_config.format`. */
  format?: JSONOutputFormat;
}

export function encodeJsonOutput(format: ResponseFormat | undefined): JsonOutput {
  if (format?.type === 'json_object') return { instruction: JSON_OBJECT_INSTRUCTION };
  if (format?.type !== 'json_schema') return {};
  const schema = fitOutputSchema(format.schema);
  if (schema) return { format: { type: 'json_schema', schema } };
  return { instruction: schemaInstruction(format.name, format.schema, format.description) };
}

function schemaInstruction(name: string, schema: unknown, description: string | undefined): string {
  const about = description ? ` (${description})` : '';
  return `Respond only with a single valid JSON value that matches the JSON schema "${name}"${about} below. Do not add any text before or after it.\n\n${JSON.stringify(schema)}`;
}
