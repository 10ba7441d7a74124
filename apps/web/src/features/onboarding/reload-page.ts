/** A full reload, in its own module so tests can replace it. */
export function reloadPage(): void {
  window.location.reload()
}
