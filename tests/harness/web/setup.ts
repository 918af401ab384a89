import { configure } from '@testing-library/dom';

// waitFor's 1 s default failed on a busy 2-core machine (a form's first submit loads its zod schema):
// wait on the state itself, with the same generous bound as the browser tests' expect.poll.
configure({ asyncUtilTimeout: 15_000 });
