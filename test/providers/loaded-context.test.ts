/** Reading the loaded context from Ollama's and LM Studio's own APIs (loaded-context.ts). */
import { describe, expect, it } from 'vitest';
import { lmStudioLoaded, modelfileContext, ollamaLoaded, serverRoot } from '../../src/providers/loaded-context.js';

describe('loaded context', () => {
  it('the server root is beside the /v1 the list came from', () => {
    expect(serverRoot('http://127.0.0.1:11434/v1/models')).toBe('http://127.0.0.1:11434');
    expect(serverRoot('http://box.lan/ollama/v1/models')).toBe('http://box.lan/ollama');
    expect(serverRoot('http://box.lan/api/models')).toBeUndefined();
  });

  it('Ollama: /api/ps by name and by model; an answer of another shape is not Ollama’s', () => {
    expect(ollamaLoaded({ models: [{ name: 'a:latest', model: 'a:latest', context_length: 4096 }, { name: 'old', size: 1 }] })).toEqual(new Map([['a:latest', 4096]]));
    expect(ollamaLoaded({ models: [] })).toEqual(new Map());
    expect(ollamaLoaded({ object: 'list', data: [] })).toBeUndefined();
  });

  it('a Modelfile’s num_ctx, wherever its line is; none when it sets none', () => {
    expect(modelfileContext({ parameters: 'stop "<|eot_id|>"\nnum_ctx                        65536\ntemperature 0.2' })).toBe(65536);
    expect(modelfileContext({ parameters: 'num_ctx 8192' })).toBe(8192);
    expect(modelfileContext({ parameters: 'num_ctx_max 8192\nstop "x"' })).toBeUndefined();
    expect(modelfileContext({ parameters: 'num_ctx 0' })).toBeUndefined();
    expect(modelfileContext({})).toBeUndefined();
  });

  it('LM Studio: the smallest loaded instance per key; a model with none loaded is not in the map', () => {
    const list = { models: [{ key: 'm', loaded_instances: [{ id: 'm', config: { context_length: 9000 } }, { id: 'm:2', config: { context_length: 4096 } }] }, { key: 'n', loaded_instances: [] }, { key: 'o' }] };
    // a second instance is also listed under its own id, with its own context
    expect(lmStudioLoaded(list)).toEqual(new Map([['m', 4096], ['m:2', 4096]]));
    expect(lmStudioLoaded({ models: [{ key: 'k', loaded_instances: [{ id: 'k', config: { context_length: 8000 } }, { id: 'k:2', config: { context_length: 32000 } }] }] })).toEqual(new Map([['k', 8000], ['k:2', 32000]]));
    expect(lmStudioLoaded({ data: [] })).toBeUndefined();
  });
});
