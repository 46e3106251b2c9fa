/**
 * AIVDM/AIVDO line decoder: tag blocks, checksums, multi-part reassembly and payload decoding.
 * `push` never throws; every line that yields nothing is counted in `stats` under one reason.
 */
import { type AisMessage, type AisPayload, decodePayload } from "./messages.ts";
import { parseSentence, parseTagBlock, type Sentence, type TagBlock } from "./nmea.ts";
import { Bits } from "./sixbit.ts";

export interface AisDecoderStats {
  lines: number;
  /** AIS sentences whose checksum verified. */
  sentences: number;
  messages: number;
  /** Empty lines and '#' comments. */
  blank: number;
  /** Other NMEA or text lines (GPS fixes, proprietary sentences). */
  notAis: number;
  badChecksum: number;
  /** Wrong field count, bad counts or fill bits, empty payload, bad tag block framing. */
  malformed: number;
  /** Tag block with a bad checksum: the sentence is still decoded, without tag metadata. */
  badTagBlocks: number;
  /** Payload characters outside the armoring alphabet or too few bits for the type. */
  badPayload: number;
  /** Message types we do not decode (6, 7, 8, ...). */
  unsupported: number;
  /** Multi-part fragments dropped because the next part did not follow them. */
  fragmentsDropped: number;
  /** Multi-part fragments dropped for age or to respect `maxPending`. */
  fragmentsEvicted: number;
}

export interface AisDecoderOptions {
  /** A partial multi-part message older than this (by receive time) is dropped. Default 60 s. */
  maxFragmentAgeMs?: number;
  /** Most partial messages kept at once; the oldest goes first. Default 256. */
  maxPending?: number;
}

interface Pending {
  total: number;
  next: number;
  payload: string;
  first: Sentence;
  tags: TagBlock | null;
  groupId: number | null;
  startedAt: number;
}

export class AisDecoder {
  readonly stats: AisDecoderStats = {
    lines: 0,
    sentences: 0,
    messages: 0,
    blank: 0,
    notAis: 0,
    badChecksum: 0,
    malformed: 0,
    badTagBlocks: 0,
    badPayload: 0,
    unsupported: 0,
    fragmentsDropped: 0,
    fragmentsEvicted: 0,
  };
  private readonly maxAge: number;
  private readonly maxPending: number;
  /** Partial messages keyed by sequential id and channel; Map order = insertion = age. */
  private readonly pending = new Map<string, Pending>();
  private readonly bits = new Bits();

  constructor(options: AisDecoderOptions = {}) {
    this.maxAge = options.maxFragmentAgeMs ?? 60_000;
    this.maxPending = options.maxPending ?? 256;
  }

  /** Partial multi-part messages currently held. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Feeds one line (without its newline); returns the message it completes, if any. */
  push(line: string, receivedAt: number = Date.now()): AisMessage | null {
    const s = this.stats;
    s.lines++;
    let start = 0;
    while (start < line.length && line.charCodeAt(start) <= 32) start++;
    if (start === line.length || line.charCodeAt(start) === 35 /* # */) {
      s.blank++;
      return null;
    }
    let tags: TagBlock | null = null;
    if (line.charCodeAt(start) === 92 /* \ */) {
      const close = line.indexOf("\\", start + 1);
      if (close < 0) {
        s.malformed++;
        return null;
      }
      tags = parseTagBlock(line.slice(start + 1, close));
      if (tags === null) s.badTagBlocks++;
      start = close + 1;
    }
    const sentence = parseSentence(line, start);
    if (typeof sentence === "string") {
      if (sentence === "checksum") s.badChecksum++;
      else if (sentence === "malformed") s.malformed++;
      else s.notAis++;
      return null;
    }
    s.sentences++;
    if (sentence.total === 1)
      return this.finish(sentence, sentence.payload, sentence.fillBits, tags, receivedAt, 1);
    return this.assemble(sentence, tags, receivedAt);
  }

  /**
   * Multi-part: parts must arrive in order on the same sequential id and channel (and the same tag
   * block group when both carry one). Anything else drops the partial message rather than risk
   * gluing parts of two messages together.
   */
  private assemble(sentence: Sentence, tags: TagBlock | null, receivedAt: number): AisMessage | null {
    this.evict(receivedAt);
    const key = `${sentence.seqId},${sentence.channel},${sentence.total}`;
    const groupId = tags?.group?.id ?? null;
    const held = this.pending.get(key);
    if (sentence.part === 1) {
      if (held) {
        this.pending.delete(key);
        this.stats.fragmentsDropped++;
      }
      // Fill bits are only meaningful on the last part.
      if (sentence.fillBits !== 0) {
        this.stats.malformed++;
        return null;
      }
      this.pending.set(key, {
        total: sentence.total,
        next: 2,
        payload: sentence.payload,
        first: sentence,
        tags,
        groupId,
        startedAt: receivedAt,
      });
      if (this.pending.size > this.maxPending) this.dropOldest();
      return null;
    }
    if (
      !held ||
      held.next !== sentence.part ||
      (groupId !== null && held.groupId !== null && groupId !== held.groupId)
    ) {
      if (held) this.pending.delete(key);
      this.stats.fragmentsDropped += held ? 2 : 1;
      return null;
    }
    held.payload += sentence.payload;
    if (sentence.part < held.total) {
      if (sentence.fillBits !== 0) {
        this.pending.delete(key);
        this.stats.fragmentsDropped += 2;
        return null;
      }
      held.next++;
      return null;
    }
    this.pending.delete(key);
    return this.finish(
      held.first,
      held.payload,
      sentence.fillBits,
      held.tags ?? tags,
      receivedAt,
      held.total,
    );
  }

  private finish(
    first: Sentence,
    payload: string,
    fillBits: number,
    tags: TagBlock | null,
    receivedAt: number,
    sentences: number,
  ): AisMessage | null {
    if (!this.bits.load(payload, fillBits)) {
      this.stats.badPayload++;
      return null;
    }
    const decoded = decodePayload(this.bits);
    if (typeof decoded === "string") {
      if (decoded === "unsupported") this.stats.unsupported++;
      else this.stats.badPayload++;
      return null;
    }
    this.stats.messages++;
    const msg = decoded as AisPayload & { meta?: AisMessage["meta"] };
    msg.meta = {
      channel: first.channel || null,
      own: first.own,
      talker: first.talker,
      tags,
      receivedAt,
      sentences,
    };
    return msg as AisMessage;
  }

  private evict(now: number): void {
    for (const [key, p] of this.pending) {
      if (now - p.startedAt <= this.maxAge) break;
      this.pending.delete(key);
      this.stats.fragmentsEvicted++;
    }
  }

  private dropOldest(): void {
    const oldest = this.pending.keys().next();
    if (!oldest.done) {
      this.pending.delete(oldest.value);
      this.stats.fragmentsEvicted++;
    }
  }
}
