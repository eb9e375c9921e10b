import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './errors';
import { handleResponse } from './http';

const res = (status: number, body: string, statusText = '') => new Response(body, { status, statusText });

describe('result and error handling (spec section 8)', () => {
  it('returns 200 and 201 as {message: data}', async () => {
    const body = { status_code: 200, message: 'ok', data: { a: 1 } };
    expect(await handleResponse(res(200, JSON.stringify(body)))).toEqual({ message: body });
    expect(await handleResponse(res(201, JSON.stringify(body)))).toEqual({ message: body });
  });

  it("fails with 'Failed to parse API response' on a body that is not JSON", async () => {
    await expect(handleResponse(res(200, '<html>'))).rejects.toMatchObject({ message: 'Failed to parse API response' });
  });

  it('marks 401 and 403 UNAUTHORIZED with the message or "Unauthorized"', async () => {
    await expect(handleResponse(res(401, JSON.stringify({ detail: 'Token expired' })))).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'Token expired', status: 401 });
    await expect(handleResponse(res(403, '{}'))).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'Unauthorized', status: 403 });
  });

  it('throws the body sentence or the status text for other failures', async () => {
    await expect(handleResponse(res(409, JSON.stringify({ detail: 'In use' })))).rejects.toMatchObject({ status: 409, message: 'In use', body: { detail: 'In use' } });
    await expect(handleResponse(res(500, '', 'Server Error'))).rejects.toMatchObject({ status: 500, message: 'Server Error' });
  });

  it('puts the request id of a server failure in the message (the toast a user quotes), not of a 4xx', async () => {
    const failed = (status: number) =>
      new Response(JSON.stringify({ detail: 'Something went wrong on our side.' }), { status, headers: { 'X-Request-ID': 'abc123def456' } });
    await expect(handleResponse(failed(500))).rejects.toMatchObject({
      status: 500,
      message: 'Something went wrong on our side. (reference abc123def456)',
      requestId: 'abc123def456',
    });
    await expect(handleResponse(failed(409))).rejects.toMatchObject({ status: 409, message: 'Something went wrong on our side.', requestId: 'abc123def456' });
  });

  it("answers 'Unexpected API response format' for other shapes", async () => {
    await expect(handleResponse(res(200, '"text"'))).rejects.toMatchObject({ message: 'Unexpected API response format' });
    await expect(handleResponse(res(202, '{}'))).rejects.toMatchObject({ message: 'Unexpected API response format' });
  });

  it('maps 422 errors onto fields', async () => {
    const body = { detail: 'Invalid input', errors: [{ loc: ['body', 'payload', 'email'], msg: 'value is not a valid email address' }] };
    await expect(handleResponse(res(422, JSON.stringify(body)))).rejects.toMatchObject({ fieldErrors: { email: 'value is not a valid email address' } });
    expect(fieldErrorsOf({ errors: { name: ['Too short'] } })).toEqual({ name: 'Too short' });
  });
});
