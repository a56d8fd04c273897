// Every answer that is not a success leaves in one shape, {"error": {"code", "message", "argument"}},
// whoever refuses the request: a route, the schemas, Fastify (404, 413, 415, bad JSON), Node's HTTP parser
// (431, 408, 400: before Fastify sees a request), the drain (503), or the database being away (503).
import { ApiError, body } from './errors.js';
import { isUnavailable } from './database.js';

/** Seconds a client should wait before retrying a 503 (the database comes back, or another process answers). */
export const RETRY_AFTER_SECONDS = 1;

export function unavailable(message = 'the database is unavailable: retry') {
  return new ApiError(503, 'FAIRMINES_UNAVAILABLE', message);
}

/** Answers `err` (an ApiError), counted by code. */
export function sendError(reply, err, metrics) {
  metrics.error(err.code);
  if (err.status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.code(err.status).type('application/json').send(body(err));
}

// The argument a schema error is about: the field named by its path or by the keyword.
function schemaError(err) {
  const v = err.validation[0];
  const argument = v.params?.additionalProperty ?? v.params?.missingProperty
    ?? (v.instancePath ? v.instancePath.slice(1).split('/')[0] : err.validationContext);
  const what = v.keyword === 'additionalProperties' ? 'unknown field'
    : v.keyword === 'required' ? 'missing' : v.message;
  return new ApiError(400, 'FAIRMINES_INVALID_REQUEST', `${argument}: ${what}`, argument);
}

// Fastify's refusals of a request body, by its error code: [status, our code]; any other is bad JSON.
const FASTIFY_BODY_ERRORS = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'FAIRMINES_BODY_TOO_LARGE'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'FAIRMINES_UNSUPPORTED_MEDIA_TYPE'],
};

/**
 * The first key that appears twice in one object of `text`, valid JSON, or null. JSON.parse keeps the last
 * of them silently; the service refuses such a body, so that what it stores is what the caller meant.
 * One pass over the text (a body is at most 2 KiB); keys with escapes are compared decoded.
 */
export function duplicateKey(text) {
  const stack = []; // per open container: the keys seen (an object) or null (an array)
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // a string: to its closing quote
      let j = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(j); d !== 0x22; d = text.charCodeAt(j)) {
        if (d === 0x5c) { escaped = true; j += 1; }
        j += 1;
      }
      if (expectKey) {
        const key = escaped ? JSON.parse(text.slice(i, j + 1)) : text.slice(i + 1, j);
        const keys = stack[stack.length - 1];
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b) { // {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 0x5b) { // [
      stack.push(null);
    } else if (c === 0x7d || c === 0x5d) { // } ]
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c) { // , : in an object, a key comes next
      expectKey = stack[stack.length - 1] != null;
    }
  }
  return null;
}

/**
 * Installs on `app` the error shapes: the error and not-found handlers, the JSON body parser (Fastify's,
 * with prototype poisoning refused, then duplicate keys refused; text/plain is not accepted), and the
 * drain: once the app closes, every request but /healthz gets 503 and its connection is closed.
 * `database.lost(err)` hears of every request that found the database unavailable.
 */
export function installErrorHandling(app, { metrics, database }) {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    parseJson(req, text, (err, value) => {
      if (err) return done(err);
      const key = duplicateKey(text);
      if (key !== null) {
        return done(new ApiError(400, 'FAIRMINES_DUPLICATE_KEY', `${key}: this key appears twice in one object of the body`, key));
      }
      return done(null, value);
    });
  });

  let draining = false;
  let sweep = null;
  app.addHook('preClose', async () => {
    draining = true;
    // A keep-alive connection whose request was in flight when the drain began goes idle once it is answered
    // (a request pipelined behind it gets the 503 below first); the server would wait for its client to close
    // it (up to the keep-alive timeout, 72 s) before it stops: it is closed as soon as it is idle.
    sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  });
  app.addHook('onClose', async () => clearInterval(sweep));
  app.addHook('onRequest', async (req, reply) => {
    if (!draining || req.routeOptions.config?.liveness) return;
    reply.header('connection', 'close');
    return sendError(reply, unavailable('this process is stopping: retry (another process answers)'), metrics);
  });

  app.setNotFoundHandler((req, reply) => sendError(reply,
    new ApiError(404, 'FAIRMINES_NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`), metrics));

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) {
      // The service's own 5xx (a state key this process lacks): the operator must act, so it is logged.
      if (err.status >= 500) req.log.error({ err: { code: err.code, message: err.message } }, 'service error');
      return sendError(reply, err, metrics);
    }
    if (err.validation) return sendError(reply, schemaError(err), metrics);
    // Fastify's own refusals of the request (bad JSON, too large, wrong content type): the caller's fault.
    if (err.statusCode >= 400 && err.statusCode < 500) {
      const [status, code] = FASTIFY_BODY_ERRORS[err.code] ?? [400, 'FAIRMINES_INVALID_JSON'];
      return sendError(reply, new ApiError(status, code, `body: ${err.message}`, 'body'), metrics);
    }
    if (isUnavailable(err)) {
      database.lost(err);
      return sendError(reply, unavailable(), metrics);
    }
    // Not the request's fault (a bug): logged by name only, never with the body.
    req.log.error({ err: { name: err.name, code: err.code, message: err.message } }, 'internal error');
    return sendError(reply, new ApiError(500, 'FAIRMINES_INTERNAL', 'internal error'), metrics);
  });
}

/** Fastify's `frameworkErrors`: a URL that does not decode (`%ff`), refused before routing. */
export function frameworkErrors(metrics) {
  return (err, req, reply) => sendError(reply,
    new ApiError(400, 'FAIRMINES_INVALID_REQUEST', `url: ${err.message}`, 'url'), metrics);
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before there is a request (a request
 * line and headers over 16 KiB: 431; too slow: 408; not HTTP: 400), answered in the same shape.
 */
export function clientErrorHandler(metrics) {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, reason, code, message] = err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'FAIRMINES_HEADERS_TOO_LARGE', 'the URL and headers exceed 16 KiB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'FAIRMINES_REQUEST_TIMEOUT', 'the request did not arrive in time']
        : [400, 'Bad Request', 'FAIRMINES_INVALID_REQUEST', 'not a valid HTTP request'];
    metrics.error(code);
    metrics.response(status);
    if (socket.writable) {
      const text = JSON.stringify(body(new ApiError(status, code, message)));
      socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n`
        + `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
    }
    socket.destroy(err);
  };
}
