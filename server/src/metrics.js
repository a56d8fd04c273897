// Prometheus text exposition of this process's counters: moves, request latency, answers by status and
// errors by code, the time spent in the fairmines addon beside the process's CPU time (the core's share of
// the service's CPU), the database pool, the event loop's lag, and the build. Each service process counts
// its own; Prometheus sums over the processes it scrapes. README.md says what each one means.
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const BUILD = { version: require('../package.json').version, addon: require('fairmines/package.json').version,
  node: process.version };
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class Metrics {
  /** `database`: its pool's connections and whether it answers (a Database of database.js), or null. */
  constructor(database = null) {
    this.database = database;
    this.responses = new Map();
    // The event loop's delay, sampled every 10 ms; its quantiles cover the time since the last scrape.
    this.loopDelay = monitorEventLoopDelay({ resolution: 10 });
    this.loopDelay.enable();
    this.moves = new Map();
    this.errors = new Map();
    this.latency = new Map();
    this.coreSeconds = 0;
    this.liveWrites = new Map([['written', 0], ['superseded', 0]]);
  }

  /**
   * A write from a live pair (live-writes.js): `written`, or `superseded` (another writer came first or held
   * the pair; locked path).
   */
  liveWrite(result) {
    this.liveWrites.set(result, this.liveWrites.get(result) + 1);
  }

  core(seconds) {
    this.coreSeconds += seconds;
  }

  move(kind) {
    this.moves.set(kind, (this.moves.get(kind) ?? 0) + 1);
  }

  error(code) {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  response(status) {
    this.responses.set(status, (this.responses.get(status) ?? 0) + 1);
  }

  close() {
    this.loopDelay.disable();
  }

  observe(route, seconds) {
    let h = this.latency.get(route);
    if (!h) this.latency.set(route, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    BUCKETS.forEach((b, i) => { if (seconds <= b) h.counts[i] += 1; });
    h.sum += seconds;
    h.count += 1;
  }

  text() {
    const out = [];
    out.push('# HELP fairmines_moves_total Moves acknowledged (committed) by this process.');
    out.push('# TYPE fairmines_moves_total counter');
    for (const [k, v] of this.moves) out.push(`fairmines_moves_total{kind="${k}"} ${v}`);
    out.push('# HELP fairmines_live_writes_total Moves written in a batch from a pair this process held live: '
      + 'written, or superseded by another writer, which came first or held the pair (then made on the locked path).');
    out.push('# TYPE fairmines_live_writes_total counter');
    for (const [k, v] of this.liveWrites) out.push(`fairmines_live_writes_total{result="${k}"} ${v}`);
    out.push('# HELP fairmines_responses_total Answers by HTTP status code.');
    out.push('# TYPE fairmines_responses_total counter');
    for (const [k, v] of [...this.responses].sort((a, b) => a[0] - b[0])) out.push(`fairmines_responses_total{code="${k}"} ${v}`);
    out.push('# HELP fairmines_errors_total Error answers by code.');
    out.push('# TYPE fairmines_errors_total counter');
    for (const [k, v] of this.errors) out.push(`fairmines_errors_total{code="${k}"} ${v}`);
    out.push('# HELP fairmines_request_duration_seconds Time from request to reply, by route.');
    out.push('# TYPE fairmines_request_duration_seconds histogram');
    for (const [route, h] of this.latency) {
      BUCKETS.forEach((b, i) => out.push(`fairmines_request_duration_seconds_bucket{route="${route}",le="${b}"} ${h.counts[i]}`));
      out.push(`fairmines_request_duration_seconds_bucket{route="${route}",le="+Inf"} ${h.count}`);
      out.push(`fairmines_request_duration_seconds_sum{route="${route}"} ${h.sum}`);
      out.push(`fairmines_request_duration_seconds_count{route="${route}"} ${h.count}`);
    }
    out.push('# HELP fairmines_core_seconds_total Time spent in calls into the fairmines addon (the game\'s rules).');
    out.push('# TYPE fairmines_core_seconds_total counter');
    out.push(`fairmines_core_seconds_total ${this.coreSeconds}`);
    const cpu = process.cpuUsage();
    out.push('# HELP process_cpu_seconds_total User and system CPU time of this process.');
    out.push('# TYPE process_cpu_seconds_total counter');
    out.push(`process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`);
    if (this.database) {
      const pool = this.database.poolStats();
      out.push('# HELP fairmines_db_connections Connections of this process\'s pool: in use (in a request), idle.');
      out.push('# TYPE fairmines_db_connections gauge');
      out.push(`fairmines_db_connections{state="in_use"} ${pool.inUse}`);
      out.push(`fairmines_db_connections{state="idle"} ${pool.idle}`);
      out.push('# HELP fairmines_db_waiting Requests waiting for a free connection of the pool.');
      out.push('# TYPE fairmines_db_waiting gauge');
      out.push(`fairmines_db_waiting ${pool.waiting}`);
      out.push('# HELP fairmines_db_up 1 while the database answers, 0 from a failure to reach it until a connection succeeds.');
      out.push('# TYPE fairmines_db_up gauge');
      out.push(`fairmines_db_up ${this.database.up ? 1 : 0}`);
      out.push('# HELP fairmines_ready 1 once the schema is migrated (the process serves), else 0.');
      out.push('# TYPE fairmines_ready gauge');
      out.push(`fairmines_ready ${this.database.ready ? 1 : 0}`);
    }
    const d = this.loopDelay;
    const lag = (ns) => (Number.isFinite(ns) && d.count > 0 ? ns / 1e9 : 0);
    out.push('# HELP fairmines_event_loop_lag_seconds How late the event loop ran timers since the last scrape: quantiles and max.');
    out.push('# TYPE fairmines_event_loop_lag_seconds gauge');
    out.push(`fairmines_event_loop_lag_seconds{quantile="0.5"} ${lag(d.percentile(50))}`);
    out.push(`fairmines_event_loop_lag_seconds{quantile="0.99"} ${lag(d.percentile(99))}`);
    out.push(`fairmines_event_loop_lag_seconds{quantile="1"} ${lag(d.max)}`);
    d.reset();
    out.push('# HELP fairmines_build_info The versions of this process: the service, the fairmines addon, Node.js.');
    out.push('# TYPE fairmines_build_info gauge');
    out.push(`fairmines_build_info{version="${BUILD.version}",addon="${BUILD.addon}",node="${BUILD.node}"} 1`);
    return `${out.join('\n')}\n`;
  }
}
