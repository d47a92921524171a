import { defineChunk } from '../../../src/shell/lazyChunk';
import { FIRST_RENDER_WAIT_MS, firstChunk, prepareFirstRender } from '../../../src/shell/startup';
import { sessionUser, storeUser } from '../fixtures';

const Screen = () => null;

function chunks(auth = vi.fn(async () => ({ default: Screen })), main = vi.fn(async () => ({ default: Screen }))) {
  return { chunks: { auth: defineChunk('auth', auth), main: defineChunk('main', main) }, auth, main };
}

afterEach(() => vi.useRealTimers());

describe('the first render', () => {
  it('needs the auth chunk on auth paths and for signed-out visitors, the main chunk otherwise', () => {
    const { chunks: c } = chunks();
    expect(firstChunk(c, '/auth/signin')).toBe(c.auth);
    expect(firstChunk(c, '/dashboard')).toBe(c.auth);
    storeUser(sessionUser());
    expect(firstChunk(c, '/dashboard')).toBe(c.main);
    expect(firstChunk(c, '/logout/')).toBe(c.auth);
  });

  it('waits for that chunk, so it renders without a loading fallback', async () => {
    const { chunks: c, auth, main } = chunks();
    await prepareFirstRender(c, '/auth/signin');
    expect(auth).toHaveBeenCalledTimes(1);
    expect(main).not.toHaveBeenCalled();
    expect(c.auth.component()).toBe(Screen);
  });

  it('does not wait longer than FIRST_RENDER_WAIT_MS', async () => {
    vi.useFakeTimers();
    const { chunks: c } = chunks(vi.fn(() => new Promise<never>(() => undefined)));
    const ready = vi.fn();
    void prepareFirstRender(c, '/auth/signin').then(ready);
    await vi.advanceTimersByTimeAsync(FIRST_RENDER_WAIT_MS - 1);
    expect(ready).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(ready).toHaveBeenCalled();
  });
});
