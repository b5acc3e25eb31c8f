/**
 * What an entry of Anthropic's model list states a model can do (`capabilities`, PROTOCOLS.md
 * §4.1.2): whether it reads images and PDFs, and whether it thinks. Not every Claude does
 * (claude-3-5-haiku neither reads images nor thinks), so a tool told so from the list offers
 * neither. `capabilities` is null for a model Anthropic states nothing of, and a gateway speaking
 * Messages may leave it out or keep only part of it: what is not stated stays unknown.
 */
import type { ModelCapabilities } from '@anthropic-ai/sdk/resources/models';
import { isObject } from '../util/is-object.js';
import type { ModelInput } from './models.js';

export interface StatedCapabilities {
  inputs?: ModelInput[];
  reasons?: boolean;
}

type CapabilityName = keyof ModelCapabilities;

/** `capabilities[name].supported`, when the entry states it as a boolean. */
function supported(capabilities: Record<string, unknown>, name: CapabilityName): boolean | undefined {
  const entry = capabilities[name];
  return isObject(entry) && typeof entry.supported === 'boolean' ? entry.supported : undefined;
}

export function anthropicCapabilities(entry: Record<string, unknown>): StatedCapabilities {
  const capabilities = entry.capabilities;
  if (!isObject(capabilities)) return {};
  const stated: StatedCapabilities = {};
  const image = supported(capabilities, 'image_input');
  const pdf = supported(capabilities, 'pdf_input');
  // both or neither: a list that states one only leaves the other unknown, and a tool's setting covers both
  if (image !== undefined && pdf !== undefined) stated.inputs = [...(image ? ['image' as const] : []), ...(pdf ? ['pdf' as const] : [])];
  const thinks = supported(capabilities, 'thinking');
  if (thinks !== undefined) stated.reasons = thinks;
  return stated;
}
