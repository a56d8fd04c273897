/* See json.h. Recursive descent over the whole text; every allocation is freed by json_free(). */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *start;
    const char *p;
    const char *end;
    char *error;
    size_t error_size;
    int failed;
} parser;

static void fail(parser *ps, const char *what) {
    if (!ps->failed && ps->error && ps->error_size) {
        snprintf(ps->error, ps->error_size, "%s at byte %ld", what, (long)(ps->p - ps->start));
    }
    ps->failed = 1;
}

static void skip_ws(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static int parse_value(parser *ps, json_value *out, int depth);

/* Appends the UTF-8 encoding of `cp` to buf (which has room for 4 more bytes). */
static size_t put_utf8(char *buf, size_t n, uint32_t cp) {
    if (cp < 0x80) {
        buf[n++] = (char)cp;
    } else if (cp < 0x800) {
        buf[n++] = (char)(0xC0 | (cp >> 6));
        buf[n++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        buf[n++] = (char)(0xE0 | (cp >> 12));
        buf[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[n++] = (char)(0x80 | (cp & 0x3F));
    } else {
        buf[n++] = (char)(0xF0 | (cp >> 18));
        buf[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        buf[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[n++] = (char)(0x80 | (cp & 0x3F));
    }
    return n;
}

static int hex4(parser *ps, uint32_t *out) {
    uint32_t v = 0;
    if (ps->end - ps->p < 4) return 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

/* Parses a string starting at the opening quote into a malloc'd NUL-terminated buffer. */
static char *parse_string(parser *ps, size_t *len_out) {
    ps->p++; /* opening quote */
    /* The decoded text is never longer than the encoded text (\uXXXX: 6 bytes -> at most 3, a pair
     * 12 -> 4), so the remaining input length bounds the buffer. */
    const char *q = ps->p;
    while (q < ps->end && *q != '"') q += (*q == '\\' && q + 1 < ps->end) ? 2 : 1;
    char *buf = malloc((size_t)(q - ps->p) + 1);
    size_t n = 0;
    if (!buf) {
        fail(ps, "out of memory");
        return NULL;
    }
    while (ps->p < ps->end && *ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p++;
        if (c < 0x20) {
            fail(ps, "control character in string");
            free(buf);
            return NULL;
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            continue;
        }
        if (ps->p >= ps->end) break;
        char e = *ps->p++;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            uint32_t cp, lo;
            if (!hex4(ps, &cp)) goto bad;
            if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                const char *save = ps->p;
                ps->p += 2;
                if (hex4(ps, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else {
                    ps->p = save; /* a lone high surrogate: encoded as is (WTF-8), like the pair below */
                }
            }
            n = put_utf8(buf, n, cp);
            break;
        }
        default:
            goto bad;
        }
    }
    if (ps->p >= ps->end) {
        fail(ps, "unterminated string");
        free(buf);
        return NULL;
    }
    ps->p++; /* closing quote */
    buf[n] = '\0';
    *len_out = n;
    return buf;
bad:
    fail(ps, "bad escape in string");
    free(buf);
    return NULL;
}

static int parse_number(parser *ps, json_value *out) {
    const char *start = ps->p;
    int negative = 0, integral = 1;
    uint64_t v = 0;
    int overflow = 0;
    if (ps->p < ps->end && *ps->p == '-') {
        negative = 1;
        ps->p++;
    }
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
        fail(ps, "bad number");
        return 0;
    }
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
        uint64_t d = (uint64_t)(*ps->p - '0');
        if (v > (UINT64_MAX - d) / 10) overflow = 1;
        v = v * 10 + d;
        ps->p++;
    }
    while (ps->p < ps->end && (strchr(".eE+-", *ps->p) || (*ps->p >= '0' && *ps->p <= '9'))) {
        integral = 0;
        ps->p++;
    }
    char tmp[64];
    size_t n = (size_t)(ps->p - start);
    if (n >= sizeof tmp) n = sizeof tmp - 1;
    memcpy(tmp, start, n);
    tmp[n] = '\0';
    out->kind = JSON_NUMBER;
    out->number = strtod(tmp, NULL);
    out->is_uint = integral && !negative && !overflow;
    out->uint = out->is_uint ? v : 0;
    return 1;
}

static int parse_container(parser *ps, json_value *out, int depth, int object) {
    size_t cap = 0;
    out->kind = object ? JSON_OBJECT : JSON_ARRAY;
    ps->p++; /* [ or { */
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) {
        ps->p++;
        return 1;
    }
    for (;;) {
        if (out->count == cap) {
            cap = cap ? cap * 2 : 8;
            json_value *items = realloc(out->items, cap * sizeof *items);
            if (!items) return fail(ps, "out of memory"), 0;
            out->items = items;
            if (object) {
                char **keys = realloc(out->keys, cap * sizeof *keys);
                if (!keys) return fail(ps, "out of memory"), 0;
                out->keys = keys;
            }
        }
        json_value *item = &out->items[out->count];
        memset(item, 0, sizeof *item);
        if (object) {
            size_t key_len;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != '"') return fail(ps, "expected a key"), 0;
            out->keys[out->count] = parse_string(ps, &key_len);
            if (!out->keys[out->count]) return 0;
            out->count++; /* counted now so json_free frees the key even if the value fails */
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') return fail(ps, "expected ':'"), 0;
            ps->p++;
            if (!parse_value(ps, item, depth + 1)) return 0;
        } else {
            out->count++;
            if (!parse_value(ps, item, depth + 1)) return 0;
        }
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) {
            ps->p++;
            return 1;
        }
        return fail(ps, "expected ',' or a closing bracket"), 0;
    }
}

static int literal(parser *ps, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return fail(ps, "bad literal"), 0;
    ps->p += n;
    return 1;
}

static int parse_value(parser *ps, json_value *out, int depth) {
    if (depth > 64) return fail(ps, "nested too deeply"), 0;
    skip_ws(ps);
    if (ps->p >= ps->end) return fail(ps, "unexpected end"), 0;
    switch (*ps->p) {
    case '{': return parse_container(ps, out, depth, 1);
    case '[': return parse_container(ps, out, depth, 0);
    case '"':
        out->kind = JSON_STRING;
        out->str = parse_string(ps, &out->len);
        return out->str != NULL;
    case 't': out->kind = JSON_BOOL; out->boolean = 1; return literal(ps, "true");
    case 'f': out->kind = JSON_BOOL; out->boolean = 0; return literal(ps, "false");
    case 'n': out->kind = JSON_NULL; return literal(ps, "null");
    default: return parse_number(ps, out);
    }
}

static void free_inner(json_value *v) {
    free(v->str);
    for (size_t i = 0; i < v->count; i++) {
        free_inner(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

void json_free(json_value *value) {
    if (value) {
        free_inner(value);
        free(value);
    }
}

json_value *json_parse(const char *text, size_t len, char *error, size_t error_size) {
    parser ps = {text, text, text + len, error, error_size, 0};
    json_value *root = calloc(1, sizeof *root);
    if (!root) return NULL;
    if (parse_value(&ps, root, 0)) {
        skip_ws(&ps);
        if (ps.p == ps.end) return root;
        fail(&ps, "trailing characters");
    }
    json_free(root);
    return NULL;
}

const json_value *json_get(const json_value *object, const char *key) {
    if (!object || object->kind != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < object->count; i++) {
        if (strcmp(object->keys[i], key) == 0) return &object->items[i];
    }
    return NULL;
}
