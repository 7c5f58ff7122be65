// The proxy agent libraries, a bundle island of their own (scripts/build.mjs): loaded only when a proxy
// applies, so a direct send never pays for them at start-up.
export { HttpProxyAgent } from 'http-proxy-agent';
export { HttpsProxyAgent } from 'https-proxy-agent';
