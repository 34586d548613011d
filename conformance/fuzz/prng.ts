// A small seeded generator (mulberry32 over a 32-bit hash of the seed and a label), so that one
// printed seed reproduces every case of a run, and each operation draws from its own stream: adding
// an operation to the spec does not change the cases of the others.

/** FNV-1a over the UTF-16 code units: a stable 32-bit hash of a string. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator of numbers uniform in [0, 1), the same stream for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Prng {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(seed: string, label = "") {
    this.next = mulberry32(hash32(`${seed}\u0000${label}`) || 1);
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** A string of `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

/** A fresh random seed (printed so the run can be repeated with --seed). */
export function randomSeed(): string {
  return String(Math.floor(Math.random() * 0xffffffff));
}
