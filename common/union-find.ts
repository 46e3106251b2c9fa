/** Disjoint sets over 0..n-1 (path halving): the connected components every graph build and loader needs. */
export class UnionFind {
  private readonly parent: Int32Array;

  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
  }

  find(x: number): number {
    const parent = this.parent;
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  }

  /** Joins the sets of a and b; false when they were one set already. */
  union(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    this.parent[ra] = rb;
    return true;
  }

  /** Members per root. */
  sizes(): Map<number, number> {
    const size = new Map<number, number>();
    for (let i = 0; i < this.parent.length; i++) {
      const r = this.find(i);
      size.set(r, (size.get(r) ?? 0) + 1);
    }
    return size;
  }
}
