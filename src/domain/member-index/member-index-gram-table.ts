/**
 * The distinct n-gram keys of a bulk build (see NgramIndex.build), numbered 0, 1, 2… in order of
 * first sight, with how many users have each. An open-addressing hash table over typed arrays:
 * keys reach 2^50, past V8's small integers, so a Map<number, number> hashes heap numbers, and
 * the 22 million lookups of 100,000 users took twice as long with one.
 *
 * @example
 * const grams = new GramTable()
 * grams.countUser(key, 0); grams.countUser(key, 0); grams.countUser(key, 1)
 * grams.userCount(0) // 2: key is gram 0, and users 0 and 1 have it
 */
export class GramTable {
  /** By hash slot: a gram's number + 1, or 0 for an empty slot. At most half full. */
  #slots = new Int32Array(1 << 12)
  #shift = 32 - 12
  /** By gram number. */
  #keys = new Float64Array(1 << 10)
  #userCounts = new Int32Array(1 << 10)
  /** The last rank seen with each gram: ranks come in ascending order, so a user's repeats are adjacent. */
  #lastRanks = new Int32Array(1 << 10)
  #size = 0

  get size(): number {
    return this.#size
  }

  keyOf(id: number): number {
    return this.#keys[id]!
  }

  /** First pass: counts the user at `rank` under the gram, once however often they have it. */
  countUser(key: number, rank: number): void {
    const id = this.idOf(key)
    if (this.#lastRanks[id] === rank) return
    this.#lastRanks[id] = rank
    this.#userCounts[id]!++
  }

  /** How many users have the gram numbered `id`, once the first pass is over. */
  userCount(id: number): number {
    return this.#userCounts[id]!
  }

  /** Forgets the ranks seen, for a second pass over the same grams. */
  forgetRanks(): void {
    this.#lastRanks.fill(-1)
  }

  /** Second pass: the gram's number, or -1 when the user at `rank` was placed under it already. */
  placeUser(key: number, rank: number): number {
    const id = this.idOf(key)
    if (this.#lastRanks[id] === rank) return -1
    this.#lastRanks[id] = rank
    return id
  }

  /** The gram's number, numbering it when it is new. */
  private idOf(key: number): number {
    const mask = this.#slots.length - 1
    for (let slot = hashKey(key) >>> this.#shift; ; slot = (slot + 1) & mask) {
      const stored = this.#slots[slot]!
      if (stored === 0) return this.insert(key, slot)
      if (this.#keys[stored - 1] === key) return stored - 1
    }
  }

  private insert(key: number, slot: number): number {
    const id = this.#size++
    if (id === this.#keys.length) this.growNumbers()
    this.#keys[id] = key
    this.#lastRanks[id] = -1
    this.#slots[slot] = id + 1
    if (this.#size * 2 > this.#slots.length) this.growSlots()
    return id
  }

  private growNumbers(): void {
    const capacity = this.#keys.length * 2
    this.#keys = copyInto(new Float64Array(capacity), this.#keys)
    this.#userCounts = copyInto(new Int32Array(capacity), this.#userCounts)
    this.#lastRanks = copyInto(new Int32Array(capacity), this.#lastRanks)
  }

  private growSlots(): void {
    this.#slots = new Int32Array(this.#slots.length * 2)
    this.#shift--
    const mask = this.#slots.length - 1
    for (let id = 0; id < this.#size; id++) {
      let slot = hashKey(this.#keys[id]!) >>> this.#shift
      while (this.#slots[slot] !== 0) slot = (slot + 1) & mask
      this.#slots[slot] = id + 1
    }
  }
}

/** 32 well-mixed bits of a key: its low 32 bits and the rest (bitwise operators see only 32). */
function hashKey(key: number): number {
  return Math.imul((key >>> 0) ^ Math.imul((key / 0x100000000) | 0, 0x85ebca6b), 0x9e3779b1)
}

function copyInto<Items extends Int32Array | Float64Array>(target: Items, source: Items): Items {
  target.set(source)
  return target
}
