import module from 'node:module'

/**
 * The server's entry point. Node keeps the compiled (and type-stripped) code
 * of every module in its compile cache (the system's temporary directory, or
 * NODE_COMPILE_CACHE), so that a restart does not strip and compile some
 * thousand modules again: 1.7–2.3 s of imports became 0.9–1.2 s (issue 13,
 * restart ≤ 2 s). The cache is keyed by each file's content; a changed file
 * is compiled anew. It must be on before anything else is imported, hence
 * the dynamic import.
 */
module.enableCompileCache()
await import('./serve.ts')
