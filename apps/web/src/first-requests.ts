// The first thing index.html runs, ahead of the app's script (app/first-requests.ts says why).
import { startFirstRequests } from './app/first-requests.ts'

startFirstRequests(window.location, window.localStorage)
