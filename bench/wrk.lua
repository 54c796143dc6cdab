-- Load for one route with wrk: `wrk ... -s bench/wrk.lua URL -- PATHS_FILE METHOD [BODY_FILE]`.
-- Requests cycle through the paths of PATHS_FILE (one per line); in a body, `__N__` becomes a
-- number unique to the request (POST /events needs unique titles), and in a path too (a
-- cache-busting `_=__N__`, as JavaScript clients send). Headers come from `-H`.
-- At the end it prints `RESULT {json}`, with the keys bench/load.py prints: errors are the
-- non-2xx responses (counted here, wrk itself only counts >= 400) and transport errors.

local threads = {}

function setup(thread)
  thread:set("thread_number", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  for line in io.lines(args[1]) do
    if #line > 0 then
      table.insert(paths, line)
    end
  end
  method = args[2]
  body = nil
  if args[3] ~= nil and args[3] ~= "" then
    local file = assert(io.open(args[3], "rb"))
    body = file:read("*a")
    file:close()
  end
  sent = 0
  non2xx = 0
  -- Unique across runs too: the warm-up and the measured run must not repeat each other's
  -- numbers (wrk does not seed Lua's generator, so math.random alone would).
  math.randomseed(os.time() * 100 + thread_number)
  run = math.random(1, 1000000000)
end

function request()
  sent = sent + 1
  local number = run .. "-" .. thread_number .. "-" .. sent
  local path = paths[(sent - 1) % #paths + 1]:gsub("__N__", number)
  if body ~= nil then
    local unique = body:gsub("__N__", number)
    return wrk.format(method, path, nil, unique)
  end
  return wrk.format(method, path)
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do
    bad = bad + thread:get("non2xx")
  end
  local errors = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.6f, "p50_ms": %.3f, "p99_ms": %.3f, '
      .. '"non2xx": %d, "transport": %d}\n',
    summary.requests,
    summary.duration / 1e6,
    latency:percentile(50) / 1000,
    latency:percentile(99) / 1000,
    bad,
    errors.connect + errors.read + errors.write + errors.timeout
  ))
end
