/** Webhook URL safety: public-address check, https-only deployed, http to loopback only in local mode. */
import { describe, expect, it } from 'vitest';
import { assertAddressAllowed, assertSafeWebhookUrl, isLoopbackAddress, isPublicAddress, UnsafeWebhookUrl } from '#events/url-safety';

describe('isPublicAddress', () => {
  it.each([
    '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.10', '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:127.0.0.1', '::ffff:a00:1', '::ffff:a9fe:a9fe', '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('is false for something that is not an IP address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('isLoopbackAddress / assertAddressAllowed', () => {
  it('knows loopback', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });

  it('deployed: loopback refused for both schemes; local: loopback allowed, http elsewhere refused', () => {
    expect(() => assertAddressAllowed('127.0.0.1', 'https:', false)).toThrow(UnsafeWebhookUrl);
    expect(() => assertAddressAllowed('1.1.1.1', 'https:', false)).not.toThrow();
    expect(() => assertAddressAllowed('127.0.0.1', 'http:', true)).not.toThrow();
    expect(() => assertAddressAllowed('1.1.1.1', 'http:', true)).toThrow(/plain http/);
    expect(() => assertAddressAllowed('10.0.0.1', 'https:', true)).toThrow(/non-public/);
  });
});

describe('assertSafeWebhookUrl, deployed (local = false)', () => {
  const refused = (url: string, message?: RegExp) => expect(assertSafeWebhookUrl(url, false)).rejects.toThrow(message ?? UnsafeWebhookUrl);

  it('refuses plain http', async () => {
    await refused('http://example.com/hook', /must use https/);
    await expect(assertSafeWebhookUrl('http://example.com/hook', false)).rejects.toBeInstanceOf(UnsafeWebhookUrl);
  });

  it('refuses loopback, metadata and IPv4-mapped literals', async () => {
    await refused('https://127.0.0.1/x', /non-public/);
    await refused('https://[::1]/', /non-public/);
    await refused('https://169.254.169.254/latest', /non-public/);
    await refused('https://[::ffff:127.0.0.1]/', /non-public/);
    await refused('https://10.0.0.5:8443/hook', /non-public/);
  });

  it('refuses credentials in the URL', async () => {
    await refused('https://user:pw@1.1.1.1/', /credentials/);
    await refused('https://user@1.1.1.1/', /credentials/);
  });

  it('refuses what is not an absolute URL, and other schemes', async () => {
    await refused('not a url', /absolute URL/);
    await refused('/relative/hook', /absolute URL/);
    await refused('ftp://1.1.1.1/', /must use https/);
  });

  it('accepts https to a public IP literal and returns the parsed URL', async () => {
    const url = await assertSafeWebhookUrl('https://1.1.1.1/hook', false);
    expect(url).toBeInstanceOf(URL);
    expect(url.href).toBe('https://1.1.1.1/hook');
  });

  it('refuses a hostname that resolves to loopback (localhost)', async () => {
    await refused('https://localhost/hook', /non-public/);
  });
});

describe('assertSafeWebhookUrl, local mode (local = true)', () => {
  it('accepts http to loopback', async () => {
    await expect(assertSafeWebhookUrl('http://127.0.0.1:9999/', true)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('http://[::1]:9999/', true)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('http://localhost:9999/hook', true)).resolves.toBeInstanceOf(URL);
  });

  it('refuses http to anything but loopback', async () => {
    await expect(assertSafeWebhookUrl('http://1.1.1.1/', true)).rejects.toThrow(/plain http/);
    await expect(assertSafeWebhookUrl('http://10.0.0.1/', true)).rejects.toThrow(UnsafeWebhookUrl);
  });

  it('still accepts https to a public address and refuses private ones', async () => {
    await expect(assertSafeWebhookUrl('https://1.1.1.1', true)).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl('https://192.168.1.1/', true)).rejects.toThrow(/non-public/);
  });

  it('defaults `local` from LOCAL_MODE', async () => {
    const saved = process.env.LOCAL_MODE;
    try {
      process.env.LOCAL_MODE = 'true';
      await expect(assertSafeWebhookUrl('http://127.0.0.1:9999/')).resolves.toBeInstanceOf(URL);
      delete process.env.LOCAL_MODE;
      await expect(assertSafeWebhookUrl('http://127.0.0.1:9999/')).rejects.toThrow(/must use https/);
    } finally {
      if (saved === undefined) delete process.env.LOCAL_MODE;
      else process.env.LOCAL_MODE = saved;
    }
  });
});
