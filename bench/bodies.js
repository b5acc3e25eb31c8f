// Request bodies of a given size for each dialect: a short agent-style conversation padded with
// realistic text so the byte size is what the scenario names.
const FILLER =
  'The function reads the configuration, validates every field against the schema, and writes the result atomically. ';

function pad(bytes) {
  return FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, bytes);
}

function chatBody(model, targetBytes, stream) {
  const base = {
    model,
    messages: [
      { role: 'system', content: 'You are a careful coding assistant.' },
      { role: 'user', content: '' },
    ],
    max_tokens: 256,
    ...(stream ? { stream: true } : {}),
  };
  const overhead = Buffer.byteLength(JSON.stringify(base));
  base.messages[1].content = pad(Math.max(16, targetBytes - overhead));
  return JSON.stringify(base);
}

function messagesBody(model, targetBytes, stream) {
  const base = {
    model,
    max_tokens: 256,
    system: 'You are a careful coding assistant.',
    messages: [{ role: 'user', content: '' }],
    ...(stream ? { stream: true } : {}),
  };
  const overhead = Buffer.byteLength(JSON.stringify(base));
  base.messages[0].content = pad(Math.max(16, targetBytes - overhead));
  return JSON.stringify(base);
}

export function buildBodies() {
  return {
    chat1k: (model, stream = false) => chatBody(model, 1024, stream),
    chat300k: (model, stream = false) => chatBody(model, 300 * 1024, stream),
    messages1k: (model, stream = false) => messagesBody(model, 1024, stream),
    messages300k: (model, stream = false) => messagesBody(model, 300 * 1024, stream),
  };
}
