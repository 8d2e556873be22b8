# Graphite's carbon-cache on loopback, for scripts/test and scripts/graphite-loss (sourced, not run).
#   write_carbon_config DIR PORT   writes DIR/conf/carbon.conf (line receiver on 127.0.0.1:PORT, whisper files under
#                                  DIR/storage/whisper, one point per second kept a day)
#   start_carbon DIR PORT          starts carbon-cache in the foreground of a background job (its pid in
#                                  carbon_pid) and waits until it accepts connections; fails with its log if not

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

write_carbon_config() {
    local dir=$1 port=$2
    mkdir -p "$dir/conf" "$dir/storage"
    cat > "$dir/conf/carbon.conf" <<CONF
[cache]
STORAGE_DIR = $dir/storage
LOCAL_DATA_DIR = $dir/storage/whisper
WHITELISTS_DIR = $dir/storage/lists
LOG_DIR = $dir/storage/log
PID_DIR = $dir/storage
ENABLE_LOGROTATION = False
USER =
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = 100000
MAX_CREATES_PER_MINUTE = inf
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $port
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $(free_port)
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = $(free_port)
LOG_UPDATES = False
WHISPER_AUTOFLUSH = True
CONF
    printf '[playtrace]\npattern = .*\nretentions = 1s:1d\n' > "$dir/conf/storage-schemas.conf"
}

start_carbon() {
    local dir=$1 port=$2
    [[ -f "$dir/conf/carbon.conf" ]] || write_carbon_config "$dir" "$port"
    rm -f "$dir/storage/carbon-cache-a.pid"
    carbon-cache --config="$dir/conf/carbon.conf" --nodaemon start >> "$dir/carbon.log" 2>&1 &
    carbon_pid=$!
    for _ in $(seq 1 100); do
        (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
        sleep 0.2
    done
    cat "$dir/carbon.log" >&2
    echo "error: carbon did not start" >&2
    return 1
}
