/* A tiny JSON reader for the test suite: parses a whole document into a tree. Enough for
 * vectors/vectors.json (objects, arrays, strings with every escape, integers, true/false/null); not a
 * general-purpose library. Strings are UTF-8 with an explicit length (they may contain NUL). */
#ifndef FAIRMINES_TEST_JSON_H
#define FAIRMINES_TEST_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json_value json_value;

struct json_value {
    json_kind kind;
    int boolean;
    /* JSON_NUMBER: the value if it is a non-negative integer that fits (is_uint), and as a double. */
    int is_uint;
    uint64_t uint;
    double number;
    /* JSON_STRING: the decoded UTF-8 bytes, NUL-terminated, `len` without the NUL. */
    char *str;
    size_t len;
    /* JSON_ARRAY / JSON_OBJECT: `count` items (and, for objects, `keys`). */
    json_value *items;
    char **keys;
    size_t count;
};

/* Parses `text` (of `len` bytes). Returns NULL and fills `error` (if not NULL) on a syntax error. */
json_value *json_parse(const char *text, size_t len, char *error, size_t error_size);
/* The member `key` of an object, or NULL. */
const json_value *json_get(const json_value *object, const char *key);
void json_free(json_value *value);

#endif
