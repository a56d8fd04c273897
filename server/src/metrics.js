// Prometheus text exposition of this process's counters: moves, request latency, errors by code, the time
// spent in the fairmines addon beside the process's CPU time (the core's share of the service's CPU).
// Each service process counts its own; Prometheus sums over the processes it scrapes.
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class Metrics {
  constructor() {
    this.moves = new Map();
    this.errors = new Map();
    this.latency = new Map();
    this.coreSeconds = 0;
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
    return `${out.join('\n')}\n`;
  }
}
