// The consumer as a Cloudflare Worker: a POST with the input as JSON runs it, the answer is the
// result, or the failure with its stack (status 500).
import { run } from './consumer.mjs';

export default {
  async fetch(request) {
    try {
      return Response.json({ result: await run(await request.json()) });
    } catch (error) {
      return Response.json({ error: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
