/**
 * After a form was refused, takes the person to the first field marked
 * invalid (`aria-invalid="true"`, in the page's order): focusing it scrolls
 * it into view, rather than leaving them at the Save button with a message
 * that names nothing. Answers that field's name as the person reads it (its
 * label, or the legend of the group it belongs to, such as the date of
 * birth's three selects), or null when no field is marked.
 */
export function focusFirstInvalid(form: HTMLElement): string | null {
  const field = form.querySelector<HTMLElement>('[aria-invalid="true"]')
  if (!field) return null
  field.focus()
  const legend = field.closest('fieldset')?.querySelector('legend')?.textContent
  const label =
    field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement
      ? field.labels?.[0]?.textContent
      : null
  // A required field's label ends in MUI's " *".
  return (legend ?? label ?? '').replace(/[\s\u2009*]+$/, '').trim() || null
}
