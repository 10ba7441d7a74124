/** Ids are long: the console shows their last 12 characters (the random part), the full id in the link's label. */
export function shortId(id: string): string {
  return `…${id.slice(-12)}`
}
