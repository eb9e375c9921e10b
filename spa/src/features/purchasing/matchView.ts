/** Pure helpers of the bill screen: the match table's highlighting and a bill's lines from its order. */

export interface MatchLineLike {
  quantity_ok: boolean;
  price_ok: boolean;
  within_tolerance: boolean;
  purchase_order_line_id: number | null;
  reason: string;
}

export type Tone = 'ok' | 'bad' | 'none';

/** How each cell group of a match line is shown: a variance out of tolerance is highlighted. */
export function matchTones(line: MatchLineLike): { quantity: Tone; price: Tone; row: Tone } {
  if (line.purchase_order_line_id === null) return { quantity: 'none', price: 'none', row: 'bad' };
  return {
    quantity: line.quantity_ok ? 'ok' : 'bad',
    price: line.price_ok ? 'ok' : 'bad',
    row: line.within_tolerance ? 'ok' : 'bad',
  };
}

export interface PoLineLike {
  id: number;
  product_id: number;
  product: { name: string };
  quantity: string;
  unit_cost: string | null;
  received_net: string;
  billed_quantity: string;
}

export interface BillLineDraft {
  key: string;
  product_id: number | null;
  description: string;
  purchase_order_line_id: number | null;
  bol_number: string;
  quantity: string;
  unit_price: string;
}

/** A new bill's lines from its purchase order: what was received and not billed yet, at the ordered cost.
 *  Lines with nothing left to bill are left out (all of them: one line per order line at its ordered quantity). */
export function linesFromPo(lines: readonly PoLineLike[], bol = ''): BillLineDraft[] {
  const open = lines.map((l) => {
    const received = Number(l.received_net);
    const left = Math.max((received > 0 ? received : Number(l.quantity)) - Number(l.billed_quantity), 0);
    return { l, left };
  });
  const some = open.filter((x) => x.left > 0);
  return (some.length ? some : open).map(({ l, left }) => ({
    key: `po${l.id}`,
    product_id: l.product_id,
    description: l.product.name,
    purchase_order_line_id: l.id,
    bol_number: bol,
    quantity: String(left || Number(l.quantity)),
    unit_price: l.unit_cost ? String(Number(l.unit_cost)) : '',
  }));
}

/** quantity x unit price to the cent (what the server stores when no amount is typed). */
export function lineAmount(quantity: string, unitPrice: string): number | null {
  const q = Number(quantity);
  const p = Number(unitPrice);
  if (!quantity || !unitPrice || Number.isNaN(q) || Number.isNaN(p)) return null;
  return Math.round(q * p * 100 + Number.EPSILON) / 100;
}
