// "Verify these dice" in the browser: recompute every logged draw from the revealed seed with
// WebCrypto, exactly as the server derived it (HMAC-SHA256, rejection sampling on 64 bits).
const encoder = new TextEncoder();
const SPACE = 1n << 64n;

function hexToBytes(hex) {
  const clean = String(hex).trim();
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new Error("bad hex");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesToHex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the seed bytes, hex — must equal the commitment published at the start. */
export async function commitmentOf(seedHex) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", hexToBytes(seedHex)));
}

/** A function (index, sides, playerSeeds) -> value, for one server seed and table. */
export async function drawer(seedHex, table) {
  const key = await crypto.subtle.importKey("raw", hexToBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (index, sides, playerSeeds) => {
    const mixed = playerSeeds.filter((p) => p.start <= index).map((p) => p.seed).join("\x1e");
    const limit = SPACE - (SPACE % BigInt(sides));
    for (let attempt = 0; ; attempt++) {
      const message = encoder.encode(`${table}\x1f${index}\x1f${attempt}\x1f${mixed}`);
      const mac = new DataView(await crypto.subtle.sign("HMAC", key, message));
      const number = mac.getBigUint64(0, false);
      if (number < limit) return Number(number % BigInt(sides)) + 1;
    }
  };
}

/** Check an exported table: the seed against the commitment, then every draw of every record. */
export async function verifyExport(data) {
  const fair = data.fair || {};
  const epochs = Array.isArray(fair.epochs) && fair.epochs.length ? fair.epochs : [fair];
  let draws = 0;
  for (let e = 0; e < epochs.length; e++) {
    const epoch = epochs[e];
    if (!epoch.seed) return { ok: false, draws, commitmentOk: null, mismatch: { seq: "–", index: "–", sides: "–", expected: "–", logged: "–" }, unrevealed: true };
    if ((await commitmentOf(epoch.seed)) !== String(epoch.commitment).toLowerCase()) {
      return { ok: false, draws, commitmentOk: false };
    }
    const start = epoch.start ?? 0;
    const end = epochs[e + 1]?.start ?? Infinity;
    const value = await drawer(epoch.seed, data.table);
    const seeds = epoch.player_seeds || fair.player_seeds || [];
    for (const record of data.records || []) {
      for (const draw of record.draws || []) {
        if (draw.index < start || draw.index >= end) continue;
        const expected = await value(draw.index, draw.sides, seeds);
        draws++;
        if (expected !== draw.value) {
          return { ok: false, draws, commitmentOk: true, mismatch: { seq: record.seq, index: draw.index, sides: draw.sides, expected, logged: draw.value } };
        }
      }
    }
  }
  return { ok: true, draws, commitmentOk: true };
}
