// @ts-check
// "Verify these dice" in the browser: recompute every logged draw from the revealed seed of its
// epoch with WebCrypto, exactly as the server derived it (HMAC-SHA256, rejection sampling on 64 bits).
const encoder = new TextEncoder();
const SPACE = 1n << 64n;

/** A player's seed and the draw (or record, format 3) from which it counts.
 * @typedef {{ start: number, seed: string }} PlayerSeed */
/** One epoch of an export's chain: where it begins, its commitment, its seed once revealed and
 * (format 3) its link in the chain.
 * @typedef {{ start: number, commitment: string, seed?: string | null, chain?: string | null }} Epoch */
/** What the check found of one epoch.
 * @typedef {{ number: number, start: number, end: number | null, status: string, draws: number,
 *   firstSeq: number | null, lastSeq: number | null }} EpochResult */
/** The value of draw `index` (of the log, or of record `seq`'s stream) of a die with `sides`.
 * @typedef {(index: number, sides: number, playerSeeds: PlayerSeed[], seq?: number | null) => Promise<number>} Drawer */

/** @param {string} hex */
function hexToBytes(hex) {
  const clean = String(hex).trim();
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new Error("bad hex");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer} bytes */
function bytesToHex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the seed bytes, hex — must equal the commitment published at the start.
 * @param {string} seedHex
 * @returns {Promise<string>} */
export async function commitmentOf(seedHex) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", hexToBytes(seedHex)));
}

/** SHA-256 of a text, hex.
 * @param {string} text */
async function sha256Text(text) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * A function (index, sides, playerSeeds, seq) -> value, for one server seed and table. Without
 * `seq` draw `index` of the whole log (formats 1 and 2); with it draw `index` of record `seq`'s
 * own stream (format 3), whose player seeds are those with start <= seq.
 * @param {string} seedHex
 * @param {string} table
 * @returns {Promise<Drawer>}
 */
export async function drawer(seedHex, table) {
  const key = await crypto.subtle.importKey("raw", hexToBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (index, sides, playerSeeds, seq = null) => {
    const at = seq ?? index;
    const mixed = playerSeeds.filter((p) => p.start <= at).map((p) => p.seed).join("\x1e");
    const prefix = seq == null ? `${table}\x1f${index}` : `${table}\x1f${seq}\x1f${index}`;
    const limit = SPACE - (SPACE % BigInt(sides));
    for (let attempt = 0; ; attempt++) {
      const message = encoder.encode(`${prefix}\x1f${attempt}\x1f${mixed}`);
      const mac = new DataView(await crypto.subtle.sign("HMAC", key, message));
      const number = mac.getBigUint64(0, false);
      if (number < limit) return Number(number % BigInt(sides)) + 1;
    }
  };
}

/**
 * Format 3: where the chain of epochs breaks, or null. Epoch 1 begins at record 1, epoch 2 at
 * the earliest there, every later one after the one before it, none after the record after the
 * log (`after`); each link is SHA-256("spieltisch-epoch" ␟ table ␟ number ␟ start ␟ commitment ␟
 * previous link).
 * @param {string} table
 * @param {Epoch[]} chain
 * @param {number} after
 */
export async function chainBreak(table, chain, after) {
  let previous = "";
  for (let n = 0; n < chain.length; n++) {
    const epoch = chain[n];
    const low = n === 0 ? 1 : n === 1 ? chain[0].start : chain[n - 1].start + 1;
    const high = n === 0 ? 1 : after;
    if (!(epoch.start >= low && epoch.start <= high)) {
      return { kind: "tiling", epoch: n + 1, start: epoch.start, low, high };
    }
  }
  for (let n = 0; n < chain.length; n++) {
    const epoch = chain[n];
    const parts = ["spieltisch-epoch", table, n + 1, epoch.start, String(epoch.commitment).toLowerCase(), previous];
    previous = await sha256Text(parts.join("\x1f"));
    if (String(epoch.chain || "").toLowerCase() !== previous) {
      return { kind: "link", epoch: n + 1, start: epoch.start, computed: previous, chain: epoch.chain };
    }
  }
  return null;
}

/** The chain of epochs of an export: `fair.epochs` (format 2) or the single seed of format 1.
 * @param {any} fair
 * @returns {Epoch[]} */
function chainOf(fair) {
  if (Array.isArray(fair.epochs)) return fair.epochs;
  return [{ start: 0, commitment: fair.commitment, seed: fair.seed }];
}

/**
 * Check an exported table epoch by epoch: each revealed seed against its commitment, then every
 * draw against the seed of the epoch it falls in; draws of the epoch not revealed yet are pending,
 * and hidden draws a player's export withholds in that epoch are counted as withheld. (Whether the
 * events follow from the draws is the replay of `spieltisch verify`, which needs the rules.)
 * @param {any} data an export
 */
export async function verifyExport(data) {
  const fair = data.fair || {};
  const chain = chainOf(fair);
  const streams = data.format === "spieltisch-table/3";
  /** @type {PlayerSeed[]} */
  const seeds = fair.player_seeds || [];
  /** @type {EpochResult[]} */
  const epochs = [];
  /** @type {(Drawer | null)[]} */
  const values = [];
  for (let n = 0; n < chain.length; n++) {
    const epoch = chain[n];
    let status = "pending";
    values.push(null);
    if (epoch.seed) {
      const computed = await commitmentOf(epoch.seed);
      status = computed === String(epoch.commitment).toLowerCase() ? "ok" : "bad_commitment";
      values[n] = await drawer(epoch.seed, data.table);
    }
    const end = n + 1 < chain.length ? chain[n + 1].start : null;
    epochs.push({ number: n + 1, start: epoch.start, end, status, draws: 0, firstSeq: null, lastSeq: null });
  }
  const epochAt = (/** @type {number} */ index) => epochs.reduce((found, e, n) => (e.start <= index ? n : found), 0);
  if (streams) return verifyStreams(data, chain, epochs, values, seeds, epochAt);
  const last = epochs[epochs.length - 1];
  const pendingFrom = last && last.status === "pending" ? last.start : null;
  let expected = 0, gap = false, draws = 0, pending = 0, withheld = 0;
  /** @type {Mismatch | null} */
  let mismatch = null;
  for (const record of data.records || []) {
    const list = record.draws || [];
    if (record.hidden && record.command == null && record.undoes == null && !list.length) { gap = true; continue; }
    for (const draw of list) {
      if (draw.index > expected && gap && pendingFrom !== null && expected >= pendingFrom) {
        withheld += draw.index - expected;
        expected = draw.index;
      }
      gap = false;
      const n = epochAt(expected);
      const epoch = epochs[n];
      if (draw.index !== expected) {
        mismatch ??= { kind: "index", seq: record.seq, index: draw.index, sides: draw.sides, expected, logged: draw.index, epoch: epoch.number };
      } else {
        epoch.draws++;
        epoch.firstSeq ??= record.seq;
        epoch.lastSeq = record.seq;
        const drawOf = values[n];
        if (drawOf) {
          draws++;
          const value = await drawOf(draw.index, draw.sides, seeds);
          if (value !== draw.value) {
            mismatch ??= { kind: "value", seq: record.seq, index: draw.index, sides: draw.sides, expected: value, logged: draw.value, epoch: epoch.number };
          }
        } else pending++;
      }
      expected++;
    }
  }
  const commitmentOk = epochs.every((e) => e.status !== "bad_commitment");
  return { ok: commitmentOk && !mismatch, draws, pending, withheld, commitmentOk, epochs, mismatch, chain: null };
}

/** Where the log and the seeds first disagree: a draw out of place or of another value.
 * @typedef {{ kind: string, seq: number, index: number, sides: number, expected: number,
 *   logged: number, epoch: number }} Mismatch */

/** Format 3: each record's draws are 0, 1, … of its own stream, in the epoch its seq falls in.
 * @param {any} data
 * @param {Epoch[]} chain
 * @param {EpochResult[]} epochs
 * @param {(Drawer | null)[]} values
 * @param {PlayerSeed[]} seeds
 * @param {(index: number) => number} epochAt
 */
async function verifyStreams(data, chain, epochs, values, seeds, epochAt) {
  const records = data.records || [];
  let draws = 0, pending = 0;
  /** @type {Mismatch | null} */
  let mismatch = null;
  for (const record of records) {
    const n = epochAt(record.seq);
    const epoch = epochs[n];
    for (const [position, draw] of (record.draws || []).entries()) {
      if (draw.index !== position) {
        mismatch ??= { kind: "index", seq: record.seq, index: draw.index, sides: draw.sides, expected: position, logged: draw.index, epoch: epoch.number };
        continue;
      }
      epoch.draws++;
      epoch.firstSeq ??= record.seq;
      epoch.lastSeq = record.seq;
      const drawOf = values[n];
      if (!drawOf) { pending++; continue; }
      draws++;
      const value = await drawOf(draw.index, draw.sides, seeds, record.seq);
      if (value !== draw.value) {
        mismatch ??= { kind: "value", seq: record.seq, index: draw.index, sides: draw.sides, expected: value, logged: draw.value, epoch: epoch.number };
      }
    }
  }
  const after = records.length ? records[records.length - 1].seq + 1 : 1;
  const broken = await chainBreak(data.table, chain, after);
  const commitmentOk = epochs.every((e) => e.status !== "bad_commitment");
  return { ok: commitmentOk && !mismatch && !broken, draws, pending, withheld: 0, commitmentOk, epochs, mismatch, chain: broken, streams: true };
}
