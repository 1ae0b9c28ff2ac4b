// The caterer's and the swag's tables: one row per T-shirt size (the
// sizes in order, then any other value, "not given" last) or dietary
// restriction (the commonest first, "other" last), each with its count
// among the attending and among those checked in.
export type Catering = { tshirt_sizes: Record<string, number>; dietary: Record<string, number> };
export type CountRow = { name: string; attending: number; checkedIn: number };

const sizeOrder = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
export const noSize = 'not given';
export const otherDiet = 'other';

function rowsOf(all: Record<string, number>, inside: Record<string, number>): CountRow[] {
  const names = new Set([...Object.keys(all), ...Object.keys(inside)]);
  return [...names].map((name) => ({ name, attending: all[name] ?? 0, checkedIn: inside[name] ?? 0 }));
}

export function sizeRows(all: Catering, inside: Catering): CountRow[] {
  const rank = (n: string) => (n === noSize ? sizeOrder.length + 1 : sizeOrder.includes(n) ? sizeOrder.indexOf(n) : sizeOrder.length);
  return rowsOf(all.tshirt_sizes, inside.tshirt_sizes).sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

export function dietRows(all: Catering, inside: Catering): CountRow[] {
  const last = (n: string) => (n === otherDiet ? 1 : 0);
  return rowsOf(all.dietary, inside.dietary).sort(
    (a, b) => last(a.name) - last(b.name) || b.attending - a.attending || a.name.localeCompare(b.name),
  );
}
