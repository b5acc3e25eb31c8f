// Benchmark mock upstream: answers each dialect instantly from precomputed bodies, so the
// numbers measure the gateway, not the mock. Runs as its own process (argv[2] = port).
//
// Dialect is chosen by path (chat / messages / responses); streaming by `"stream":true` in the
// body; pacing (a chunk every 5 ms) by a model id starting with "paced"; slow pacing for long
// streams (a chunk every N ms, for the soak) by a model id containing "drip<N>".
import http from 'node:http';

const CHUNKS = 200;
const PACE_MS = 5;

const chatJson = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1730000000,
    model: 'bench-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench mock.', refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 250, completion_tokens: 7, total_tokens: 257, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
  }),
);

const messagesJson = Buffer.from(
  JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'bench-model',
    content: [{ type: 'text', text: 'Hello from the bench mock.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 250, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7 },
  }),
);

function chatStreamChunks() {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1730000000, model: 'bench-model' };
  const out = [`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`];
  for (let i = 0; i < CHUNKS - 3; i++) {
    out.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: `tok${i} ` }, finish_reason: null }] })}\n\n`);
  }
  out.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
  out.push(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 250, completion_tokens: CHUNKS, total_tokens: 250 + CHUNKS } })}\n\n`);
  out.push('data: [DONE]\n\n');
  return out.map((s) => Buffer.from(s));
}

function messagesStreamChunks() {
  const ev = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const out = [
    ev('message_start', {
      type: 'message_start',
      message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench-model', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 250, output_tokens: 1 } },
    }),
    ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (let i = 0; i < CHUNKS - 5; i++) {
    out.push(ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `tok${i} ` } }));
  }
  out.push(ev('content_block_stop', { type: 'content_block_stop', index: 0 }));
  out.push(ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: CHUNKS } }));
  out.push(ev('message_stop', { type: 'message_stop' }));
  return out.map((s) => Buffer.from(s));
}

const chatStream = chatStreamChunks();
const messagesStream = messagesStreamChunks();

const modelsJson = Buffer.from(JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model', created: 1730000000, owned_by: 'bench' }] }));

function dialectOf(url) {
  if (url.endsWith('/messages')) return 'messages';
  if (url.endsWith('/chat/completions')) return 'chat';
  if (url.endsWith('/models')) return 'models';
  return 'unknown';
}

function sendPaced(res, chunks, paceMs = PACE_MS) {
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed) {
      clearInterval(timer);
      return;
    }
    res.write(chunks[i++]);
    if (i === chunks.length) {
      clearInterval(timer);
      res.end();
    }
  }, paceMs);
  res.on('close', () => clearInterval(timer));
}

const server = http.createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const dialect = dialectOf(req.url ?? '');
    if (dialect === 'models') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': modelsJson.length });
      res.end(modelsJson);
      return;
    }
    if (dialect === 'unknown') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    // Look only at the head of the body: cheap, and enough for the fields we key on.
    const head = Buffer.concat(parts).subarray(0, 4096).toString('latin1');
    const stream = /"stream"\s*:\s*true/.test(head);
    const paced = /"model"\s*:\s*"[^"]*paced/.test(head);
    const drip = /"model"\s*:\s*"[^"]*drip(\d+)/.exec(head);
    if (!stream) {
      const body = dialect === 'chat' ? chatJson : messagesJson;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunks = dialect === 'chat' ? chatStream : messagesStream;
    if (drip) {
      sendPaced(res, chunks, Math.max(1, Number(drip[1])));
      return;
    }
    if (paced) {
      sendPaced(res, chunks);
      return;
    }
    // One write per event, as a real upstream flushes them: the gateway sees many small chunks.
    for (const c of chunks) res.write(c);
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`ready ${typeof addr === 'object' && addr ? addr.port : ''}\n`);
});
process.on('SIGTERM', () => process.exit(0));
