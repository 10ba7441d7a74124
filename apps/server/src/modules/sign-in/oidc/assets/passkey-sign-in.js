/* global document, window */
// The sign-in page's "Sign in with a passkey" (modules/sign-in/oidc/passkey-sign-in.ts): asks
// the server for a challenge, lets the browser's WebAuthn sign it with a
// passkey of the user's choice, and posts the answer as an ordinary form,
// whose answer is the usual redirect into Pactum. Loaded from /oidc/assets
// (no inline script: the Content-Security-Policy allows none).
;(() => {
  const box = document.getElementById('passkey')
  const button = document.getElementById('passkey-sign-in')
  const form = document.getElementById('passkey-form')
  const error = document.getElementById('passkey-error')
  const webauthn = window.SimpleWebAuthnBrowser
  if (!box || !button || !form || !error || !webauthn || !webauthn.browserSupportsWebAuthn()) return
  box.hidden = false
  button.addEventListener('click', async () => {
    button.disabled = true
    error.hidden = true
    try {
      const response = await fetch(box.dataset.optionsUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      })
      if (!response.ok) throw new Error(`options: ${response.status}`)
      const credential = await webauthn.startAuthentication({ optionsJSON: await response.json() })
      form.elements.credential.value = JSON.stringify(credential)
      form.submit()
    } catch {
      // Cancelled, timed out, or no passkey for this site: say so and leave the password form as it is.
      error.textContent = box.dataset.failed
      error.hidden = false
      button.disabled = false
    }
  })
})()
