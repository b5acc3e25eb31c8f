/**
 * POST chat/completions, responses and messages: read and check the request, resolve its
 * targets, and try them in order — policy checks, passthrough or conversion, the upstream call,
 * and the answer back in the client's dialect (whole or streamed). Groups fall back per
 * fallback.ts; a stream only until its answer began for the client (headers and comments sent
 * early to a client kept waiting do not count: early-stream.ts; while targets are left, neither
 * does the stream's envelope: stream-relay.ts holdEnvelope).
 */
import { ProtocolError, badRequest } from '../protocols/errors.js';
import type { ResponseContext, StreamDecoder } from '../protocols/codec.js';
import type { Dialect, Effort, HubError, HubRequest } from '../protocols/hub.js';
import type { TopLevelMember } from '../protocols/json-members.js';
import { MessageContentAccumulator } from '../protocols/messages/content-accumulate.js';
import { wantsLegacyFunctionCall } from '../protocols/chat/request-decode.js';
import { callIdsOf } from '../protocols/call-id-reuse.js';
import { chatCallIdsOf } from './chat-call-ids.js';
import { requestEcho } from '../protocols/responses/request-echo.js';
import { verbatimStringsOf } from '../protocols/lazy-json.js';
import { stringifyKeepingStrings, VerbatimStrings } from '../protocols/verbatim-strings.js';
import type { ResolvedProvider } from '../providers/types.js';
import { effortFromThinking, lowerEffort, readEffort, type EffortAsked } from './effort.js';
import { snapEffort } from '../providers/effort.js';
import type { ModelControls } from '../providers/stated-controls.js';
import { streamBodyTimeout, type Exchange } from './exchange.js';
import { shouldFallback } from './fallback.js';
import { allTargetsFailed, type TriedTarget } from './all-failed.js';
import type { Fitted } from './chat-fit.js';
import { continueAfterPrefill } from './prefill-continue.js';
import { asksToolUseIdRewrite, rewriteToolUseIds, type ToolUseIdRewrites } from './tool-use-id-rewrites.js';
import { addUsage, continuationBody, MAX_PAUSE_CONTINUATIONS, mayPause } from './pause-continue.js';
import { KeptTurn } from './kept-turn.js';
import { readOpenAIConversation } from './openai-chain.js';
import { isResolveFailure } from '../providers/registry.js';
import { foldFreeformTools, FreeformStream, unfoldFreeformCalls, type FreeformNames } from './freeform-tools.js';
import { EarlyStream, isOpenedEarly } from './early-stream.js';
import { editJsonBody } from './json-splice.js';
import { checkStatefulResponses, policyRefusal, readFeatures, type RequestFeatures } from './policy.js';
import { isThreadRefusal } from './message-threads.js';
import {
  attachToChatBody,
  attachToRequest,
  dropUnprovenManualThinking,
  dropUnprovenThinking,
  effortLeftWithoutThinking,
  rememberChatAnswer,
  rememberOutput,
  StreamReasoningCollector,
} from './reasoning-continuity.js';
import { needsNativeProof, restoreNativeProof } from './passthrough-envelopes.js';
import { dropForeignChatReasoning, dropForeignThinking, recordMessagesAnswer, recordOutput, remembersSignatures, withoutForeignProof } from './proof-issuers.js';
import { maskEchoed } from './echoed-secrets.js';
import { redactForLog, streamSecret } from './redact.js';
import { msSince } from './request-log.js';
import { checkDeclaredLength, checkJsonContentType, ClientGone, parseJsonRequest, readBody } from './request-body.js';
import { answeredByHeaders, answerHeaders, sendError, sendJson } from './respond.js';
import type { UpstreamResponse } from './services.js';
import { ConvertedRelay, PassthroughRelay, type ConvertOptions, type RelayOptions, type StreamOutcome } from './stream-relay.js';
import { StreamTap } from './stream-tap.js';
import { stopsLeftOut } from '../protocols/stops-left-out.js';
import { cutAnswerAtStop } from './stop-cut-answer.js';
import { StopCutStream } from './stop-cut-stream.js';
import { CutUsage } from './stop-cut-usage.js';
import { textTokenCounter, type TokenCounter } from '../providers/local-token-estimate.js';
import { resolveTargets, type Target } from './targets.js';
import { restoreResponseToolNames, shortenToolNames, type ToolNameMap } from './tool-names.js';
import { invalidResponse, retryAdviceHeaders, withWaitInMessage, type UpstreamFailure } from './upstream-errors.js';
import { fromHubUsage, readResponseUsage } from './usage.js';
import type { LogAttempt, LogUsage } from '../log/entry.js';
import type { HubResponse, Usage } from '../protocols/hub.js';
import { contentOf, isEventStream, readAnswer, readPart, readStreamedAnswer, type Answered } from './answer-read.js';
import { coolingLast } from './cooling-last.js';
import { passthroughAnswerProblem } from './passthrough-answer.js';
import { passthroughScan } from './passthrough-scan.js';
import { fitBody, learnFromFailure, refusesBody, sameBytes, wentWithoutEffort, type Built, type RequestFit } from './target-body.js';
import { callUpstream } from './upstream-call.js';
import { sendWholeAsStream } from './whole-as-stream.js';

type Obj = Record<string, unknown>;

/**
 * Decoding and converting walk the client's body recursively; JSON nested thousands of levels deep
 * (a tool schema, say) overflows the stack there. That is the request's fault, a 400, not a 500
 * the daemon reports as its own bug. Passthrough never walks the body, so it is not checked.
 */
function tooDeepIsTheClients(err: unknown): unknown {
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return badRequest('invalid_json', 'The request body is nested too deeply to convert for this model (JSON thousands of levels deep).');
  }
  return err;
}

export function handleGenerate(x: Exchange, dialect: Dialect): Promise<void> {
  return new GenerateRequest(x, dialect).run();
}

class GenerateRequest {
  private readonly x: Exchange;
  private readonly dialect: Dialect;
  private raw!: Buffer;
  /** A new, unedited copy of the body. */
  private fresh!: () => Obj;
  /** The body's top-level spans, when it is read lazily. */
  private members: TopLevelMember[] | undefined;
  private body!: Obj;
  private stream = false;
  private includeUsage = false;
  /** A Chat client of the deprecated `functions`: its call is answered as `function_call`. */
  private legacyFunctions = false;
  private asked!: EffortAsked;
  /** Level implied by a Messages client's thinking settings (for non-Messages targets). */
  private thinkingEffort: Effort | undefined;
  /** A Messages client asked thinking of its own (a level named or not: adaptive alone is Claude Code's). */
  private thinkingAsked = false;
  private features!: RequestFeatures;
  private bodyUsed = false;
  /** The target being tried has others after it in its group (streams hold their envelope: stream-relay.ts). */
  private fallbackLeft = false;
  private hub: HubRequest | undefined;
  /** The tokenizer, for the usage of a stream cut at a stop it holds (loaded for such requests only). */
  private countText: TokenCounter | undefined;
  /** The call ids of `hub`'s conversation (callIdTaken), for the hub they were read from. */
  private takenIds: { hub: HubRequest; has: (id: string) => boolean } | undefined;
  private toolNames: ToolNameMap | undefined;
  /** Target-facing names of the Responses client's freeform tools (freeform-tools.ts). */
  private freeform: FreeformNames | undefined;
  /** The decoded body's long strings as the client's bytes, for the converted body to reuse. */
  private verbatim: VerbatimStrings | undefined;
  /** A Responses request and the answers the daemon keeps (kept-turn.ts). */
  private kept: KeptTurn | undefined;
  /** A passthrough Chat conversation's calls by hub id, when putting proof back read them (attachToChatBody). */
  private chatHubIds: ((id: string) => boolean) | undefined;

  constructor(x: Exchange, dialect: Dialect) {
    this.x = x;
    this.dialect = dialect;
  }

  async run(): Promise<void> {
    const { x, dialect } = this;
    const { req, config, record, route, services } = x;
    const limit = config.settings.bodyLimitBytes;
    checkDeclaredLength(req, limit);
    checkJsonContentType(req);
    this.raw = await readBody(req, limit, x);
    let parsed = parseJsonRequest(this.raw);
    record.entry.modelAsked = parsed.model;
    record.entry.streamed = parsed.stream;
    // the client's own body, before kept or OpenAI-read conversations are put in front of it
    if (config.settings.logBodies) record.entry.requestBody = redactForLog(parsed.body, undefined);
    if (dialect === 'responses') checkStatefulResponses(parsed.body);
    const targets = resolveTargets(config, route.group, parsed.model, (slug) => services.resolveProvider(slug));
    if (dialect === 'responses') {
      this.kept = new KeptTurn(x.responses, record.entry.keyId ?? '');
      const resolved = this.kept.resolve(parsed.body, this.raw);
      if (resolved) {
        this.raw = resolved;
        parsed = parseJsonRequest(resolved);
      }
    }
    this.adopt(parsed);
    this.stream = parsed.stream;

    this.asked = readEffort(parsed.body, dialect);
    if (this.asked.label !== undefined) record.entry.effortAsked = this.asked.label;
    if (dialect === 'messages' && this.asked.effort === undefined) this.thinkingEffort = effortFromThinking(parsed.body.thinking);
    if (dialect === 'messages') this.thinkingAsked = parsed.body.thinking !== undefined;
    if (dialect === 'chat') {
      const so = parsed.body.stream_options;
      this.includeUsage = typeof so === 'object' && so !== null && (so as Obj).include_usage === true;
      this.legacyFunctions = wantsLegacyFunctionCall(parsed.body);
    }

    const ordered = route.group === undefined || !config.settings.groupCooldowns ? targets : coolingLast(x, targets);
    const after = config.settings.streamHeadersAfterMs;
    // a thread refusal must reach the client as an HTTP 400, which the Anthropic SDK replays
    // unthreaded; after early headers it could only be an event in the stream
    const early = this.stream && after > 0 && !this.threadRefusedAhead(ordered) ? new EarlyStream(x.res, dialect, after, dialect === 'responses' ? (err) => this.failedResponse(err) : undefined) : undefined;
    try {
      await this.tryTargets(ordered);
    } finally {
      early?.stop();
    }
  }

  /** Take this body as the request's (its features read again): the client's, or one going on from a conversation. */
  private adopt(parsed: ReturnType<typeof parseJsonRequest>): void {
    this.fresh = parsed.fresh;
    this.members = parsed.members;
    this.body = parsed.body;
    this.bodyUsed = false;
    this.features = readFeatures(parsed.body, this.dialect);
  }

  /**
   * A previous_response_id of OpenAI's (not kept here), about to go to a target that does not
   * speak Responses — the first one, or one a group falls back to after OpenAI failed: the
   * conversation is read from OpenAI, when it is connected, and the body goes on from it as from a
   * kept answer (later targets too). False when nothing is read; the target then refuses the id
   * (policy.ts). A read that fails is this target's refusal (thrown).
   */
  private async goOnFromOpenAI(target: ResolvedProvider): Promise<boolean> {
    const id = this.features.previousResponse ? this.kept?.unkept(this.body) : undefined;
    if (id === undefined || target.adapter.dialect === 'responses') return false;
    const openai = this.x.services.resolveProvider('openai');
    if (isResolveFailure(openai)) return false;
    this.raw = this.kept!.goOn(id, await readOpenAIConversation(this.x, openai, id), this.raw);
    // the targets tried so far were sent the body as the client gave it (passthrough): no decoded form yet
    this.hub = undefined;
    this.adopt(parseJsonRequest(this.raw));
    return true;
  }

  /**
   * Whether a target of the walk refuses the request's message thread (message-threads.ts): the
   * walk ends there with that refusal. It depends on the request and the target alone, so it is
   * known before any byte is written.
   */
  private threadRefusedAhead(ordered: Target[]): boolean {
    if (!this.features.thread) return false;
    return ordered.some((t) => {
      const p = t.provider;
      if (!p || t.refusal) return false;
      const refusal = policyRefusal(this.features, p.adapter, p.slug, this.dialect);
      return refusal !== undefined && isThreadRefusal(refusal);
    });
  }

  /** Each target in order (cooling ones last) until one answers; the last failure (or the first refusal) otherwise. */
  private async tryTargets(ordered: Target[]): Promise<void> {
    const { x, dialect } = this;
    const { record, route } = x;
    let firstRefusal: ProtocolError | undefined;
    let last: { failure: UpstreamFailure; slug: string; model: string } | undefined;
    const tried: TriedTarget[] = [];
    const cooling = x.config.settings.groupCooldowns;
    for (const [i, target] of ordered.entries()) {
      this.fallbackLeft = route.group !== undefined && i < ordered.length - 1;
      const provider = target.provider;
      if (provider && !target.refusal) {
        try {
          await this.goOnFromOpenAI(provider);
        } catch (err) {
          if (!(err instanceof ProtocolError)) throw err;
          record.skipped(target.label, err.code, err.message);
          firstRefusal ??= err;
          continue;
        }
      }
      const refusal = target.refusal ?? (provider ? policyRefusal(this.features, provider.adapter, provider.slug, dialect) : undefined);
      if (refusal || !provider) {
        const r = refusal!;
        record.skipped(target.label, r.code, r.message);
        if (isThreadRefusal(r)) throw r;
        firstRefusal ??= r;
        continue;
      }
      const passthrough = provider.adapter.dialect === dialect;
      // decoding problems are the client's, whatever the target: they propagate as a 400
      let hub: HubRequest | undefined;
      try {
        hub = passthrough ? undefined : this.decoded();
      } catch (err) {
        throw tooDeepIsTheClients(err);
      }
      // the tool_use id rewrites this pair's last request needed, asked up front (tool-use-id-rewrites.ts)
      const remembered = passthrough && dialect === 'messages' ? x.toolUseIds.recall(record.entry.keyId ?? '', target.label) : undefined;
      const fit: RequestFit = { ...remembered };
      let built: Built;
      try {
        built = this.build(provider, target.model, hub, remembered && fit);
      } catch (thrown) {
        const err = tooDeepIsTheClients(thrown);
        if (!(err instanceof ProtocolError)) throw err;
        record.skipped(target.label, err.code, err.message);
        firstRefusal ??= err;
        continue;
      }
      if (built.effortSent !== undefined) record.entry.effortSent = built.effortSent;
      else delete record.entry.effortSent;

      let failure = await this.attempt(provider, target, built);
      // an upstream that says what it would take gets it: at most three more tries
      for (let tries = 0; failure && tries < 3; tries++) {
        const again = this.refit(provider, target.model, hub, built, failure, fit);
        if (!again) break;
        built = again;
        if (built.effortSent !== undefined) record.entry.effortSent = built.effortSent;
        else delete record.entry.effortSent;
        failure = await this.attempt(provider, target, built);
      }
      if (remembered || asksToolUseIdRewrite(fit)) x.toolUseIds.settle(record.entry.keyId ?? '', target.label, built.idRewrites);
      if (!failure) {
        if (cooling) x.cooldowns.succeeded(target.label);
        return;
      }
      last = { failure, slug: provider.slug, model: built.upstreamModel };
      tried.push({ label: target.label, failure });
      if (!shouldFallback(failure)) break;
      if (cooling) x.cooldowns.failed(target.label, failure);
      if (route.group === undefined) break;
    }

    if (last) {
      const failure = allTargetsFailed(tried);
      const headers = retryAdviceHeaders(failure, answeredByHeaders(last.slug, last.model));
      // headers sent early (streamHeadersAfterMs): the client got a 200 and the final error event
      const status = x.res.headersSent ? 200 : failure.status;
      sendError(x.res, route.protocol, isOpenedEarly(x.res) ? withWaitInMessage(failure) : failure, headers);
      record.finish(x.deps.log, status, failure.code);
      return;
    }
    throw firstRefusal!;
  }

  /** The parsed body the first time; a fresh copy afterwards (edits happen in place). */
  private freshBody(): Obj {
    if (!this.bodyUsed) {
      this.bodyUsed = true;
      return this.body;
    }
    return this.fresh();
  }

  /** The request in hub form, decoded once, tool names made safe, freeform tools made functions. */
  private decoded(): HubRequest {
    if (!this.hub) {
      const body = this.freshBody();
      const hub = this.x.services.codecs[this.dialect].decodeRequest(body);
      this.verbatim = verbatimStringsOf(body);
      this.toolNames = shortenToolNames(hub);
      this.freeform = foldFreeformTools(hub);
      this.hub = hub;
    }
    return this.hub;
  }

  /** The effort for this target: asked, lowered to the adapter's ceiling, snapped to levels the model said it takes. */
  private effortFor(p: ResolvedProvider, upstreamModel: string, fit: RequestFit | undefined): Effort | undefined {
    const { adapter } = p;
    let effort = this.asked.effort;
    if (effort === undefined && adapter.dialect !== 'messages') effort = this.thinkingEffort;
    if (effort === undefined) return undefined;
    const levels = fit?.effortLevels ?? this.x.upstreamFits.effortLevels(p.slug, upstreamModel);
    effort = lowerEffort(effort, adapter.highestEffort);
    return levels === undefined ? effort : snapEffort(effort, levels);
  }

  /**
   * The reasoning controls the target's model list stated for the model (stated-controls.ts), which
   * its adapter fits the level to: only asked when there is a level to send (one map lookup), or
   * thinking a Messages client set itself, which the list's thinking mode decides too (adaptive
   * without a level, as Claude Code asks it, goes as a budget to a model the list says has none).
   */
  private statedControls(p: ResolvedProvider, upstreamModel: string, effort: Effort | undefined): ModelControls | undefined {
    if (effort === undefined && !this.thinkingAsked) return undefined;
    return this.x.services.statedControls?.(p.slug, upstreamModel);
  }

  private build(p: ResolvedProvider, model: string, hub: HubRequest | undefined, fit?: RequestFit): Built {
    return hub ? this.buildConverted(p, model, hub, fit) : this.buildPassthrough(p, model, fit);
  }

  /**
   * The request again, fitted to what the upstream's 400 (or 422, or llama.cpp's 500 for a chat
   * template's refusal) said it takes, or undefined when
   * the refusal teaches nothing, or nothing that changes this body (no reasoning to strip, no
   * system message to move, no trailing assistant turn); `fit` gathers what this request learnt.
   */
  private refit(p: ResolvedProvider, model: string, hub: HubRequest | undefined, built: Built, failure: UpstreamFailure, fit: RequestFit): Built | undefined {
    if (!refusesBody(failure) || !learnFromFailure(this.x.upstreamFits, p, built, failure, fit)) return undefined;
    const again = this.build(p, model, hub, fit);
    return sameBytes(again.bytes, built.bytes) ? undefined : again;
  }

  private buildPassthrough(p: ResolvedProvider, model: string, fit?: RequestFit): Built {
    const upstreamModel = p.adapter.normaliseModelId(model);
    const effort = this.effortFor(p, upstreamModel, fit);
    const { dialect, stream } = this;
    const { cache, issuers } = this.x;
    const envelopes = needsNativeProof(dialect, this.raw);
    let fitted: Fitted | undefined;
    let idRewrites: ToolUseIdRewrites | undefined;
    const { bytes, result } = editJsonBody(
      this.raw,
      this.freshBody(),
      this.fresh,
      (body) => {
        body.model = upstreamModel;
        if (dialect === 'chat') {
          this.chatHubIds = attachToChatBody(cache, body, p.slug);
          dropForeignChatReasoning(body, issuers, p.slug);
        }
        let restored = envelopes && restoreNativeProof(dialect, body);
        if (dialect === 'messages') restored = dropForeignThinking(body, issuers, p.slug) || restored;
        const finalized = p.adapter.finalizeBody(body, { model: upstreamModel, effort, from: dialect, passthrough: true, stream, stated: this.statedControls(p, upstreamModel, effort) });
        fitted = fitBody(this.x.upstreamFits, p, upstreamModel, body, fit);
        if (fit?.continuePrefill) continueAfterPrefill(body);
        if (fit && dialect === 'messages' && asksToolUseIdRewrite(fit)) idRewrites = rewriteToolUseIds(body, fit);
        // the turn whose tools are answered lost its foreign thinking, or a model that does not
        // think wrote it (manual thinking only): thinking off, not a 400
        if (dialect === 'messages' && (restored ? dropUnprovenThinking(body) : dropUnprovenManualThinking(body))) return effortLeftWithoutThinking(body);
        return finalized;
      },
      this.members,
    );
    const built: Built = { bytes, upstreamModel, passthrough: true };
    if (idRewrites) built.idRewrites = idRewrites;
    if (result.effortSent !== undefined && !wentWithoutEffort(fitted)) built.effortSent = result.effortSent;
    if (fitted) built.fitted = fitted;
    return built;
  }

  private buildConverted(p: ResolvedProvider, model: string, hub: HubRequest, fit?: RequestFit): Built {
    const upstreamModel = p.adapter.normaliseModelId(model);
    const effort = this.effortFor(p, upstreamModel, fit);
    // a Messages turn may lack the reasoning it was answered with: hidden while thinking was off
    const attached = attachToRequest(this.x.cache, hub, p.slug, this.dialect !== 'responses');
    let items = attached.items;
    // Messages targets hoist every system text, so a place that moves with the proof dropped here does not matter
    if (p.adapter.dialect === 'messages') items = withoutForeignProof(items, this.x.issuers, p.slug);
    const forTarget: HubRequest = { ...hub, model: upstreamModel, items, system: attached.system };
    if (effort !== undefined) forTarget.reasoning = { ...hub.reasoning, effort };
    const encodeOptions = p.adapter.encodeOptions(upstreamModel);
    const body = this.x.services.codecs[p.adapter.dialect].encodeRequest(forTarget, encodeOptions);
    body.model = upstreamModel;
    const stated = this.statedControls(p, upstreamModel, effort);
    let { effortSent } = p.adapter.finalizeBody(body, { model: upstreamModel, effort, from: this.dialect, passthrough: false, stream: this.stream, stated });
    if (p.adapter.dialect === 'messages' && dropUnprovenThinking(body)) ({ effortSent } = effortLeftWithoutThinking(body));
    const fitted = fitBody(this.x.upstreamFits, p, upstreamModel, body, fit);
    if (fit?.continuePrefill) continueAfterPrefill(body);
    const built: Built = { bytes: stringifyKeepingStrings(body, this.verbatim), upstreamModel, passthrough: false, fitted };
    if (effortSent !== undefined && !wentWithoutEffort(fitted)) built.effortSent = effortSent;
    if (this.toolNames) built.toolNames = this.toolNames;
    if (this.freeform) built.freeform = this.freeform;
    if (p.adapter.dialect === 'messages' && mayPause(hub)) built.mayPause = true;
    const stops = stopsLeftOut(p.adapter.dialect, hub.stop, encodeOptions);
    if (stops) built.stops = stops;
    return built;
  }

  /** One upstream call. Returns undefined when the client got its answer, else the failure. */
  private async attempt(p: ResolvedProvider, target: Target, built: Built): Promise<UpstreamFailure | undefined> {
    // a stream cut at a stop reports estimated usage (stop-cut-usage.ts): the tokenizer is loaded first (once per daemon)
    if (built.stops && this.stream) this.countText ??= await textTokenCounter();
    const { record } = this.x;
    const started = performance.now();
    // the calls that continued a paused turn follow it in the log (record.continued)
    const note = (status: number, errorCode?: string): void => this.note(target, started, status, errorCode);

    let sent: Awaited<ReturnType<typeof callUpstream>>;
    record.begin(target.label, started);
    try {
      sent = await callUpstream(this.x, p, this.dialect, this.stream, built.upstreamModel, built.bytes);
    } catch (err) {
      // the client left while this target was asked: the log names the attempt it left
      if (err instanceof ClientGone) note(0, 'client_disconnected');
      throw err;
    }
    if ('failure' in sent) {
      note(sent.status, sent.failure.code);
      return sent.failure;
    }
    const { up } = sent;
    record.upstreamAnswered(up.status);

    if (up.kind === 'stream' && this.stream && isEventStream(up.headers)) {
      const outcome = await this.relay(p, target, built, up);
      if (outcome.kind === 'precommit') {
        note(outcome.failure.upstreamStatus || up.status, outcome.failure.code);
        return outcome.failure;
      }
      const committed = this.x.res.headersSent;
      const errorCode = outcome.errorCode ?? (outcome.clientGone ? 'client_disconnected' : undefined);
      // the attempt says so too, as one the client left while its headers were awaited does
      note(up.status, errorCode);
      record.answeredBy(p.slug, built.upstreamModel);
      record.usage(outcome.usage);
      record.finish(this.x.deps.log, outcome.clientGone && !committed ? 499 : 200, errorCode);
      return undefined;
    }
    return this.answer(p, target, built, up, note);
  }

  private note(target: Target, started: number, status: number, errorCode?: string): void {
    const latencyMs = msSince(started);
    this.x.record.attempt(errorCode ? { target: target.label, status, latencyMs, errorCode } : { target: target.label, status, latencyMs });
  }

  /**
   * The request sent again to go on with a paused turn (pause-continue.ts): its answer, or why
   * there is none (logged as an attempt of its own); undefined when the client left meanwhile.
   */
  private async continuePaused(p: ResolvedProvider, target: Target, built: Built, content: readonly unknown[]): Promise<{ up: Answered } | { failure: UpstreamFailure } | undefined> {
    const started = performance.now();
    const { record } = this.x;
    const log = (status: number, errorCode?: string): void => {
      const a: LogAttempt = { target: target.label, status, latencyMs: msSince(started), continued: true };
      if (errorCode) a.errorCode = errorCode;
      record.continued(a);
    };
    // a request ended meanwhile logs this call too (request-log.ts)
    record.beginContinued(target.label, started);
    let sent;
    try {
      sent = await callUpstream(this.x, p, this.dialect, this.stream, built.upstreamModel, continuationBody(built.bytes, content));
    } catch (err) {
      if (!(err instanceof ClientGone)) throw err;
      log(0, 'client_disconnected');
      return undefined;
    }
    if ('failure' in sent) {
      log(sent.status, sent.failure.code);
      return { failure: sent.failure };
    }
    const { up } = sent;
    // a whole answer may be continued from a stream (readPart), a stream not from a whole answer
    if (this.stream && !isEventStream(up.headers)) {
      if (up.kind === 'stream') up.body.destroy();
      const failure = invalidResponse(p.slug, 'the continuation of a paused turn came back whole');
      log(up.status, failure.code);
      return { failure };
    }
    log(up.status);
    return { up };
  }

  /**
   * A whole answer that paused, continued until it ends (or the continuations run out): one
   * answer, the parts' output in order and their usage added.
   */
  private async continueWhole(p: ResolvedProvider, target: Target, built: Built, firstContent: readonly unknown[], answer: HubResponse): Promise<HubResponse | UpstreamFailure> {
    const content = [...firstContent];
    let joined = answer;
    for (let left = MAX_PAUSE_CONTINUATIONS; joined.stopReason === 'pause_turn' && left > 0; left--) {
      const next = await this.continuePaused(p, target, built, content);
      if (next === undefined) throw new ClientGone();
      if ('failure' in next) return next.failure;
      const read = await readPart(this.x, p, built, next.up);
      if (!('part' in read)) return read;
      const { part } = read;
      content.push(...read.content);
      // both parts' usage or neither's: addUsage then has both counts
      const usage = joined.usage && part.usage ? (addUsage(joined.usage, part.usage) as Usage) : (part.usage ?? joined.usage);
      joined = { ...part, id: joined.id, output: [...joined.output, ...part.output], usage };
    }
    return joined;
  }

  private relay(p: ResolvedProvider, target: Target, built: Built, up: UpstreamResponse): Promise<StreamOutcome> {
    const { x, dialect } = this;
    const idle = x.config.settings.idleTimeoutMs;
    const options: RelayOptions = { res: x.res, body: up.body, record: x.record, abort: x.abort, slug: p.slug, credential: p.credential, clientDialect: dialect, headers: up.headers };
    if (up.receivedDate !== undefined) options.date = up.receivedDate;
    // later chunks keep the shorter limit, watched by the relay
    if (idle < streamBodyTimeout(x.config)) options.idleTimeoutMs = idle;
    if (this.fallbackLeft) options.holdEnvelope = true;
    if (built.passthrough) {
      const scan = passthroughScan(x, dialect, p, built.upstreamModel, dialect === 'chat' ? this.chatCallIdTaken() : undefined);
      return new PassthroughRelay(options, new StreamTap(dialect, scan, this.fallbackLeft)).run();
    }
    const codecs = x.services.codecs;
    const ctx = this.responseContext(`${p.slug}/${built.upstreamModel}`);
    const decoder = (): StreamDecoder => codecs[p.adapter.dialect].createStreamDecoder(p.adapter.decodeOptions?.(built.upstreamModel));
    const convert: ConvertOptions = {
      decoder: decoder(),
      encoder: codecs[dialect].createStreamEncoder(ctx),
      toolNames: built.toolNames,
      freeform: built.freeform && new FreeformStream(built.freeform),
      collector: new StreamReasoningCollector(x.cache, p.slug, this.keepsReasoning, remembersSignatures(p.adapter) ? x.issuers : undefined, this.callIdTaken()),
      errorField: p.adapter.dialect === 'chat',
    };
    if (built.stops) convert.stops = new StopCutStream(built.stops, this.countText && this.hub && new CutUsage(this.countText, this.hub));
    if (built.mayPause) {
      convert.continuation = {
        content: new MessageContentAccumulator(),
        left: MAX_PAUSE_CONTINUATIONS,
        decoder,
        next: async (content) => {
          const next = await this.continuePaused(p, target, built, content);
          // a streamed request's continuation is streamed too (send): it has its body
          return next && 'up' in next ? { body: (next.up as UpstreamResponse).body } : next;
        },
      };
    }
    return new ConvertedRelay(options, convert).run();
  }

  /** A Messages client turned thinking off: it gets no thinking blocks (hideThinking). */
  private get thinkingOff(): boolean {
    return this.dialect === 'messages' && this.hub?.reasoning?.thinkingType === 'disabled';
  }

  /**
   * The proxy keeps the answer's reasoning for its tool calls, since the client will not send it
   * back: a Chat client has no field for it, a Messages client with thinking off got no block.
   */
  private get keepsReasoning(): boolean {
    return this.dialect === 'chat' || this.thinkingOff;
  }

  /** How a converted answer is rendered for this client. */
  private responseContext(model: string): ResponseContext {
    if (this.dialect === 'chat') return this.legacyFunctions ? { model, includeUsage: this.includeUsage, legacyFunctions: true } : { model, includeUsage: this.includeUsage };
    const ctx = this.kept ? this.kept.context({ model, echo: requestEcho(this.body) }) : { model };
    if (this.dialect === 'messages') {
      if (this.hub?.reasoning?.display === 'omitted') ctx.omitThinking = true;
      if (this.thinkingOff) ctx.hideThinking = true;
      if (this.hub?.contextEdits) ctx.contextEdits = this.hub.contextEdits;
    }
    // a new call must not take the id of one in the conversation (call-id-reuse.ts)
    const taken = this.callIdTaken();
    if (taken) ctx.callIdTaken = taken;
    return ctx;
  }

  /** Whether a call id is one of the decoded conversation's; one set for the encoder and the reasoning kept (both rename alike). */
  private callIdTaken(): ((id: string) => boolean) | undefined {
    if (!this.hub) return undefined;
    if (this.takenIds?.hub !== this.hub) this.takenIds = { hub: this.hub, has: callIdsOf(this.hub.items) };
    return this.takenIds.has;
  }

  /**
   * Whether a call id is the hub id of one of a passthrough Chat conversation's calls: as putting
   * proof back named them, before any edit, or else read from the client's body at the first
   * question (chat-call-ids.ts): the body sent may have been edited.
   */
  private chatCallIdTaken(): (id: string) => boolean {
    return this.chatHubIds ?? chatCallIdsOf(this.fresh);
  }

  /**
   * A Responses stream that fails before its first event, its headers sent early: the response is
   * still created and then failed (`response.created`, `in_progress`, `error`, `response.failed`),
   * as OpenAI's own streams and svc-proxy's converted ones end; Codex reads the failure's code
   * (a prompt too long, a rate limit) from `response.failed` and not from a bare `error`.
   */
  private failedResponse(err: HubError): string {
    const ctx = this.responseContext(this.x.record.entry.modelAsked ?? '');
    return this.x.services.codecs.responses.createStreamEncoder(ctx).encode({ type: 'error', error: err });
  }

  /** A whole 2xx answer: check it, render it for the client, send it. */
  private async answer(
    p: ResolvedProvider,
    target: Target,
    built: Built,
    up: Answered,
    note: (status: number, errorCode?: string) => void,
  ): Promise<UpstreamFailure | undefined> {
    const { x, dialect } = this;
    const fail = (failure: UpstreamFailure): UpstreamFailure => {
      note(up.status, failure.code);
      return failure;
    };

    // a request for a whole answer answered with a stream (a gateway or local server that streams
    // whatever `stream` says) is read to its end and goes the converted way, even in its own dialect
    const read = isEventStream(up.headers) ? await readStreamedAnswer(x, p, up, built) : await readAnswer(x, p, up, 'the upstream answer');
    if (!('json' in read) && !('streamed' in read)) return fail(read);
    const kept = 'json' in read ? read.kept : undefined;

    let answered: string;
    let client: Obj;
    let bytes: Buffer | string;
    let usage: LogUsage | undefined;
    // a streaming request answered whole (a gateway or local server that ignores `stream`) goes the
    // converted way even in its own dialect: its answer becomes the stream the client asked for
    if (built.passthrough && !this.stream && 'json' in read) {
      const { buf, json } = read;
      const problem = passthroughAnswerProblem(dialect, json, x.services.codecs[dialect]);
      if (problem !== undefined) return fail(invalidResponse(p.slug, `unexpected answer: ${problem}`));
      client = json;
      answered = typeof client.model === 'string' && client.model !== '' ? p.adapter.normaliseModelId(client.model) : built.upstreamModel;
      usage = readResponseUsage(client, dialect);
      if (dialect === 'chat') rememberChatAnswer(x.cache, p.slug, client, this.chatCallIdTaken());
      else if (remembersSignatures(p.adapter)) recordMessagesAnswer(x.issuers, p.slug, client);
      // only `model` changes: a large answer keeps its other bytes instead of being re-serialised
      const model = `${p.slug}/${answered}`;
      bytes = editJsonBody(buf, client, () => JSON.parse(buf.toString('utf8')) as Obj, (body) => void (body.model = model)).bytes;
    } else {
      let hubRes;
      if ('streamed' in read) hubRes = read.streamed;
      else {
        try {
          hubRes = x.services.codecs[p.adapter.dialect].decodeResponse(read.json, p.adapter.decodeOptions?.(built.upstreamModel));
        } catch (err) {
          if (!(err instanceof ProtocolError)) throw err;
          return fail(invalidResponse(p.slug, `unexpected answer: ${err.message}`));
        }
      }
      // a paused turn is continued whole, whether it came as JSON or as an event stream
      if (built.mayPause && hubRes.stopReason === 'pause_turn') {
        const joined = await this.continueWhole(p, target, built, 'json' in read ? contentOf(read.json) : (read.content ?? []), hubRes);
        if (!('output' in joined)) return fail(joined);
        hubRes = joined;
      }
      if (built.stops) cutAnswerAtStop(hubRes, built.stops);
      // freeform calls are known by the names the target answered with: before those are restored
      if (built.freeform) unfoldFreeformCalls(hubRes, built.freeform);
      if (built.toolNames) restoreResponseToolNames(hubRes, built.toolNames);
      // reasoning only for clients that do not carry it (keepsReasoning); thought signatures for all
      rememberOutput(x.cache, p.slug, hubRes.output, this.keepsReasoning, this.callIdTaken());
      if (remembersSignatures(p.adapter)) recordOutput(x.issuers, p.slug, hubRes.output);
      answered = hubRes.model ? p.adapter.normaliseModelId(hubRes.model) : built.upstreamModel;
      const model = `${p.slug}/${answered}`;
      if (this.stream) {
        note(up.status);
        sendWholeAsStream(x, x.services.codecs[dialect].createStreamEncoder(this.responseContext(model)), p, answered, hubRes, up);
        return undefined;
      }
      client = x.services.codecs[dialect].encodeResponse(hubRes, this.responseContext(model));
      // an answer too large to keep says so
      if (this.kept && !this.kept.keep(client)) client.store = false;
      bytes = stringifyKeepingStrings(client, kept);
      if (hubRes.usage) usage = fromHubUsage(hubRes.usage);
    }

    sendJson(x.res, 200, maskEchoed(bytes, streamSecret(p.credential)), answerHeaders(p.slug, answered, up.headers));
    note(up.status);
    const { record } = x;
    record.firstByte();
    record.answeredBy(p.slug, answered);
    record.usage(usage);
    if (x.config.settings.logBodies) record.entry.responseBody = redactForLog(client, p.credential);
    record.finish(x.deps.log, 200);
    return undefined;
  }
}
