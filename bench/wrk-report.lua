-- wrk calls done() once the run is over; bench/wrk-run.ts reads the two lines it prints.
-- Latencies (µs): wrk's percentiles at every 0.1 %, each point standing for 0.1 % of the responses, so
-- that runs can be pooled. wrk's own percentile(100) finds no rank and answers 0: the last point is the max.
-- CPU: wrk's own /proc/self/stat, read after its threads are done (their time is the process's).
done = function(summary, latency, requests)
  local points = {}
  for i = 1, 999 do
    local value = latency:percentile(i / 10)
    if value == 0 then value = latency.max end
    points[i] = string.format('%d', value)
  end
  points[1000] = string.format('%d', latency.max)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"percentilesUs":[%s]}\n',
    summary.requests, summary.duration, errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    table.concat(points, ',')))
  local stat = io.open('/proc/self/stat', 'r')
  if stat then
    io.write('BENCH_STAT ', stat:read('*l'), '\n')
    stat:close()
  end
end
