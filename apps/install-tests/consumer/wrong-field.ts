// Must not compile: the generated request type has no `nam`.
import { createClient } from '@browser-cloud/client';

await createClient({ baseUrl: 'http://127.0.0.1:1', token: 't' }).profiles.rename('p', { nam: 'x' });
