#!/usr/bin/env bash
# Builds rowflow's container image where no Docker engine or container registry is reachable: the
# image deploy/Dockerfile describes, its root filesystem made by debootstrap from Debian's archive
# and assembled by buildah into an OCI archive. After `mvn -B -DskipTests package`, as root:
#
#   deploy/build-image.sh [--output FILE] [--name NAME:TAG] [--mirror URL] [--work DIR] [--keep-work]
#   (--work: where its temporary directory goes, default /var/tmp; --keep-work: keep that directory)
#   deploy/build-image.sh --definition      # print the image definition, build nothing
#
# Then `podman load -i FILE`, or push: `skopeo copy oci-archive:FILE docker://REGISTRY/rowflow:TAG`.
# Needs root (debootstrap installs packages, chroot), debootstrap, buildah and a Debian mirror
# (Debian: apt-get install debootstrap buildah). Exit status: 0 built, 1 failed, 2 refused to start.
set -euo pipefail

project="$(cd "$(dirname "$0")/.." && pwd)"
image_dir="$project/deploy/image"

# The definition. deploy/Dockerfile states the same; ImageDefinitionTest compares the two and
# ImageIT compares a built image with the Dockerfile.
SUITE=bookworm   # the Dockerfile's debian:bookworm-slim is debootstrap's minbase of bookworm, slimmed
mapfile -t PACKAGES < <(grep -v '^#' "$image_dir/packages" | grep -v '^[[:space:]]*$')
COPIES=(
  "pipeline/target/lib/ /opt/rowflow/lib/"
  "pipeline/target/rowflow-pipeline-*.jar /opt/rowflow/rowflow-pipeline.jar"
)
USER_SPEC=10001:10001
ENV_VARS=(
  # What debian:bookworm-slim sets; a root filesystem from debootstrap has no image config to inherit.
  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
  "JAVA_TOOL_OPTIONS=-XX:MaxRAMPercentage=50 -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError"
)
PORT=8080
ENTRYPOINT='["java", "-XX:SharedArchiveFile=/opt/rowflow/rowflow.jsa", "-jar", "/opt/rowflow/rowflow-pipeline.jar"]'
CMD='["run", "--config", "/etc/rowflow/rowflow.properties"]'

jars=("$project"/pipeline/target/rowflow-pipeline-*.jar)
version="unknown"
if [ -e "${jars[0]}" ]; then
  version="$(basename "${jars[0]}" .jar)"; version="${version#rowflow-pipeline-}"
fi
revision="$(git -C "$project" rev-parse HEAD 2>/dev/null || echo unknown)"
created="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
LABELS=(
  "org.opencontainers.image.title=rowflow"
  "org.opencontainers.image.description=Kafka Streams ingestion of event streams into HBase tables with designed row keys"
  "org.opencontainers.image.source=https://github.com/rowflow/rowflow"
  "org.opencontainers.image.version=$version"
  "org.opencontainers.image.revision=$revision"
  "org.opencontainers.image.created=$created"
)

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
}

refuse() {
  echo "build-image.sh: $*" >&2
  echo "Try 'deploy/build-image.sh --help' for more information." >&2
  exit 2
}

output="$project/deploy/target/rowflow-image.oci.tar"
name=""
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
work=""
keep_work=false
while [ $# -gt 0 ]; do
  case "$1" in
    --output) [ $# -ge 2 ] || refuse "--output needs a FILE"; output="$2"; shift 2 ;;
    --name) [ $# -ge 2 ] || refuse "--name needs a NAME:TAG"; name="$2"; shift 2 ;;
    --mirror) [ $# -ge 2 ] || refuse "--mirror needs a URL"; mirror="$2"; shift 2 ;;
    --work) [ $# -ge 2 ] || refuse "--work needs a DIR"; work="$2"; shift 2 ;;
    --keep-work) keep_work=true; shift ;;
    --definition)
      echo "base debian $SUITE"
      printf 'package %s\n' "${PACKAGES[@]}"
      echo "run deploy/image/prepare-root"
      printf 'copy %s\n' "${COPIES[@]}"
      echo "run deploy/image/archive-classes"
      echo "user $USER_SPEC"
      printf 'env %s\n' "${ENV_VARS[@]}"
      echo "port $PORT"
      echo "entrypoint $ENTRYPOINT"
      echo "cmd $CMD"
      printf 'label %s\n' "${LABELS[@]}"
      exit 0 ;;
    -h|--help) usage; exit 0 ;;
    *) refuse "unknown argument '$1'" ;;
  esac
done
name="${name:-ghcr.io/rowflow/rowflow:$version}"

[ "$(id -u)" = 0 ] || refuse "must run as root: debootstrap installs packages and prepare-root runs in a chroot"
for tool in debootstrap buildah chroot; do
  command -v "$tool" >/dev/null || refuse "$tool is not installed (Debian: apt-get install debootstrap buildah)"
done
[ "${#jars[@]}" = 1 ] && [ -f "${jars[0]}" ] \
  || refuse "expected one pipeline/target/rowflow-pipeline-*.jar, found: ${jars[*]} (run 'mvn -B -DskipTests package' first)"
[ -d "$project/pipeline/target/lib" ] || refuse "pipeline/target/lib is missing (run 'mvn -B -DskipTests package' first)"

# A directory of its own under --work (default /var/tmp; about 1.5 GB at the peak), so that removing
# it at the end removes nothing else.
mkdir -p "${work:-/var/tmp}"
work="$(mktemp -d "${work:-/var/tmp}/rowflow-image.XXXXXX")"
buildah=(buildah --root "$work/containers" --runroot "$work/run" --storage-driver vfs)
container=""
cleanup() {
  if [ -n "$container" ]; then "${buildah[@]}" rm "$container" >/dev/null 2>&1 || true; fi
  # A debootstrap that failed half-way can leave /proc or /sys mounted in the root it was making:
  # unmount them first, and never let rm cross into another file system.
  awk -v work="$work/" 'index($2, work) == 1 { print $2 }' /proc/mounts | sort -r | xargs -r umount -l
  if [ "$keep_work" = false ]; then rm -rf --one-file-system "$work"; fi
}
trap cleanup EXIT
started=$(date +%s)

# The image's root filesystem is built in place, in the working container of buildah's own storage
# (kept under the work directory, so nothing is left in the machine's /var/lib/containers).
container="$("${buildah[@]}" from scratch)"
root="$("${buildah[@]}" mount "$container")"

# FROM debian:bookworm-slim + RUN apt-get install --no-install-recommends: debootstrap's --include
# installs the packages' Depends, not their Recommends.
echo "build-image.sh: debootstrap $SUITE (minbase) with ${PACKAGES[*]} from $mirror"
packages_csv="$(IFS=,; echo "${PACKAGES[*]}")"
if ! debootstrap --variant=minbase --include="$packages_csv" "$SUITE" "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log" >&2
  echo "build-image.sh: debootstrap failed (log above; whole log in $work/debootstrap.log with --keep-work)" >&2
  exit 1
fi
# What a container runtime provides at start, and what debootstrap copied from this machine: not
# part of an image.
rm -f "$root/etc/hostname" "$root/etc/resolv.conf"
find "$root/dev" -mindepth 1 -delete

# RUN ... prepare-root, at the same path the Dockerfile mounts it.
mkdir -p "$root/tmp/rowflow-image"
cp "$image_dir/prepare-root" "$image_dir/packages" "$root/tmp/rowflow-image/"
chroot "$root" sh /tmp/rowflow-image/prepare-root
rm -rf "$root/tmp/rowflow-image"

# COPY: files owned by root, modes and times kept, as Docker's COPY does.
for copy in "${COPIES[@]}"; do
  read -r source target <<<"$copy"
  if [[ "$source" == */ ]]; then
    mkdir -p "$root$target"
    cp -R --preserve=mode,timestamps "$project/$source." "$root$target"
  else
    matches=("$project"/$source)
    cp --preserve=mode,timestamps "${matches[0]}" "$root$target"
  fi
done

# RUN ... archive-classes: the class-data sharing archive, made by the image's own java, with /proc
# mounted as a container has it.
mkdir -p "$root/tmp/rowflow-image"
cp "$image_dir/archive-classes" "$image_dir/rowflow.classlist" "$root/tmp/rowflow-image/"
mount -t proc proc "$root/proc"
archived=true
chroot "$root" sh /tmp/rowflow-image/archive-classes || archived=false
umount "$root/proc"
rm -rf "$root/tmp/rowflow-image"
[ "$archived" = true ] || { echo "build-image.sh: archive-classes failed" >&2; exit 1; }

unpacked=$(du -sb "$root" | cut -f1)
java=$(du -sb "$root/usr/lib/jvm" | cut -f1)
rowflow=$(du -sb "$root/opt/rowflow" | cut -f1)
"${buildah[@]}" umount "$container" >/dev/null
# EXPOSE's default protocol, as Docker records it; the history names this script, not a shell.
config=(--user "$USER_SPEC" --port "$PORT/tcp" --entrypoint "$ENTRYPOINT" --cmd "$CMD"
  --created-by "deploy/build-image.sh: debootstrap $SUITE minbase, ${PACKAGES[*]}, prepare-root, rowflow $version")
for env in "${ENV_VARS[@]}"; do config+=(--env "$env"); done
for label in "${LABELS[@]}"; do config+=(--label "$label"); done
"${buildah[@]}" config "${config[@]}" "$container"
mkdir -p "$(dirname "$output")"
rm -f "$output"
"${buildah[@]}" commit --quiet --format oci --disable-compression=false "$container" "oci-archive:$output:$name" >/dev/null
"${buildah[@]}" rm "$container" >/dev/null
container=""

archive=$(stat -c %s "$output")
echo "build-image.sh: $name -> $output"
if [ "$keep_work" = true ]; then echo "build-image.sh: work directory kept: $work"; fi
echo "build-image.sh: $((archive / 1000000)) MB compressed, $((unpacked / 1000000)) MB unpacked" \
  "(Java $((java / 1000000)) MB, /opt/rowflow $((rowflow / 1000000)) MB: jars and class archive), in $(( $(date +%s) - started )) s"
