/* examples/verify_round.c as a user runs it: exit 0 when the record verifies, 1 when it does not, 2 on bad input,
 * with the lines it must print. The worked example's round (nonce 1, mines at 7 10 19), tiles 1 and 2 picked,
 * cashed out at 25/22 x 24/21 x 99/100 = 9/7. Run by scripts/test-c.sh:
 *   test_verify_round PATH_OF_VERIFY_ROUND SCRATCH_DIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SERVER "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
#define CLIENT "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"
#define RECORD(picks, outcome, multiplier)                                                                    \
    "{\"commitment\":\"f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42\",\"client_seed\":\"" \
    CLIENT "\",\"nonce\":1,\"mines\":3,\"rtp\":\"99/100\",\"picks\":[" picks "],\"outcome\":\"" outcome      \
    "\",\"multiplier\":" multiplier "}"

static const char *program, *dir;
static int failures;

/* Runs the program with one or two arguments (and `input` on standard input when not NULL); its exit status must be
 * `want` and its output (stdout and stderr) must hold each of `lines`, whole lines, or start with `prefix`. */
static void expect(int want, const char *record, const char *seed, const char *input, const char *const *lines) {
    char out[4096], in_path[512], out_path[512];
    snprintf(out_path, sizeof out_path, "%s/verify.out", dir);
    snprintf(in_path, sizeof in_path, "%s/verify.in", dir);
    FILE *f = fopen(in_path, "w");
    fputs(input ? input : "", f);
    fclose(f);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(in_path, "r", stdin) || !freopen(out_path, "w", stdout) || dup2(fileno(stdout), 2) < 0) _exit(99);
        execl(program, program, record, seed, (char *)NULL);
        _exit(98);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    f = fopen(out_path, "r");
    size_t n = fread(out, 1, sizeof out - 2, f);
    fclose(f);
    memmove(out + 1, out, n);   /* "\n" + the output: every line starts with "\n" */
    out[0] = '\n', out[n + 1] = '\0';
    int got = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (got != want) printf("FAIL: exit %d, want %d: verify_round %s %s\n", got, want, record, seed ? seed : ""), failures++;
    for (; lines && *lines; lines++) {
        char needle[256];
        snprintf(needle, sizeof needle, "\n%s", *lines);
        if (!strstr(out, needle)) printf("FAIL: no line '%s' in:%s\n", *lines, out), failures++;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: %s VERIFY_ROUND SCRATCH_DIR\n", argv[0]), 2;
    program = argv[1], dir = argv[2];
    const char *const verified[] = {"verdict    VERIFIED\n", "mines      7 10 19\n",
                                    "replayed   cashed_out, multiplier 9/7 (1.28)\n", NULL};
    expect(0, RECORD("1,2", "cashed_out", "\"9/7\""), SERVER, NULL, verified);
    char at_file[600], missing[600];
    snprintf(at_file, sizeof at_file, "@%s/record.json", dir);
    snprintf(missing, sizeof missing, "@%s/no-such-file", dir);
    FILE *f = fopen(at_file + 1, "w");
    fputs(RECORD("1,10", "lost", "null"), f);
    fclose(f);
    expect(0, at_file, SERVER, NULL, NULL);
    expect(0, "@-", SERVER, RECORD("1,10", "lost", "null"), NULL);
    const char *const multiplier[] = {"difference multiplier: ", "verdict    NOT VERIFIED\n", NULL};
    expect(1, RECORD("1,2", "cashed_out", "\"10/7\""), SERVER, NULL, multiplier);
    expect(1, RECORD("1,7", "cashed_out", "\"9/7\""), SERVER, NULL, NULL);
    snprintf(at_file, sizeof at_file, "@%s/mismatch.json", dir);   /* also run under valgrind by scripts/test-c.sh */
    f = fopen(at_file + 1, "w");
    fputs(RECORD("1,2", "cashed_out", "\"10/7\""), f);
    fclose(f);
    expect(1, at_file, SERVER, NULL, multiplier);
    const char *const commitment[] = {"difference commitment: ", NULL};
    expect(1, RECORD("1,2", "cashed_out", "\"9/7\""), CLIENT, NULL, commitment);
    expect(2, "{\"not\":\"a record\"}", SERVER, NULL, NULL);
    expect(2, RECORD("1,26", "cashed_out", "\"9/7\""), SERVER, NULL, NULL);
    expect(2, missing, SERVER, NULL, NULL);
    expect(2, RECORD("1,2", "cashed_out", "\"9/7\""), NULL, NULL, NULL);
    expect(2, "\377", SERVER, NULL, NULL);
    printf("verify_round: 12 runs, %d failures\n", failures);
    return failures != 0;
}
