// One copy for the server and the web app's server render (packages/shared); the server's modules
// keep importing it from here.
export { escapeHtml } from '@pixel-vault/shared';
