#!/bin/sh
# Install the Debian packages blocksim needs, only those missing.
# Runs as root, or through sudo when available.
set -eu
# Build: compiler, CMake, SUNDIALS, libxml2, GSL, LAPACK (MATEIG's
# eigensolvers, as Scilab's); .zcos (libzip; zlib for the tests' gzipped
# reference data); results
# (matio, HDF5); plots (cairo); sweeps over MPI (OpenMPI); fuzzing and
# sanitizers (clang with its runtime).
PKGS="build-essential cmake pkg-config libsundials-dev libxml2-dev libgsl-dev
      liblapack-dev libzip-dev zlib1g-dev libmatio-dev libhdf5-dev hdf5-tools libcairo2-dev
      libopenmpi-dev openmpi-bin clang libclang-rt-14-dev"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO=sudo
echo "installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
