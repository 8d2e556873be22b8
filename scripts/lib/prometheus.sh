# Prometheus on loopback, for scripts/test and scripts/bench-probe (sourced, not run; needs free_port from carbon.sh).
#   start_prometheus DIR PORT   writes DIR/prometheus.yml and starts Debian's prometheus on 127.0.0.1:PORT in a
#                               background job (its pid in prometheus_pid), its data under DIR/data; it scrapes every
#                               second the targets listed in DIR/targets/*.json (file discovery, re-read as they
#                               change: a test writes the probe's address there); waits until it is ready, or fails
#                               with its log.

start_prometheus() {
    local dir=$1 port=$2
    mkdir -p "$dir/targets" "$dir/data"
    cat > "$dir/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: playtrace-probe
    file_sd_configs:
      - files: ['$dir/targets/*.json']
        refresh_interval: 1s
CONF
    prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
        --web.listen-address="127.0.0.1:$port" >> "$dir/prometheus.log" 2>&1 &
    prometheus_pid=$!
    for _ in $(seq 1 150); do
        curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null && return 0
        sleep 0.2
    done
    cat "$dir/prometheus.log" >&2
    echo "error: Prometheus did not start" >&2
    return 1
}
