// atomic_file.cpp — implementation of write-to-temp + fsync + rename file output, and of the
// destinations that are written in place (devices, pipes, standard output). The
// temporary file is written through a stream buffer on its file descriptor that keeps the
// errno of the first failed write(2), so an error message names the OS reason (e.g. "File too
// large", "No space left on device") rather than whatever errno holds by the time the stream
// reports its failure.
#include "atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <streambuf>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skipstone::io {
namespace {

std::atomic<unsigned long long> g_temp_counter{0};

std::filesystem::path make_temp_path(const std::filesystem::path& path) {
    std::string name = "." + path.filename().string() + ".tmp." +
                       std::to_string(static_cast<long long>(::getpid())) + "." +
                       std::to_string(g_temp_counter.fetch_add(1));
    return path.parent_path() / name;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what,
                       const std::string& reason) {
    throw std::runtime_error("write_file_atomically: " + what + " for '" + path.string() +
                             "': " + reason);
}

[[noreturn]] void fail_errno(const std::filesystem::path& path, const std::string& what, int err) {
    fail(path, what, std::strerror(err));
}

void remove_quietly(const std::filesystem::path& p) {
    std::error_code ec;
    std::filesystem::remove(p, ec);
}

// Output stream buffer on an open file descriptor (not owned). A failed write(2) makes the
// stream bad and is remembered in error() (0 while every write succeeded).
class FdOutBuf : public std::streambuf {
public:
    explicit FdOutBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
    int error() const { return error_; }

protected:
    int_type overflow(int_type ch) override {
        if (!drain()) return traits_type::eof();
        if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
        *pptr() = traits_type::to_char_type(ch);
        pbump(1);
        return ch;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        if (n >= static_cast<std::streamsize>(sizeof buf_)) {  // large blocks bypass the buffer
            if (!drain() || !write_all(s, static_cast<std::size_t>(n))) return 0;
            return n;
        }
        return std::streambuf::xsputn(s, n);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool write_all(const char* p, std::size_t n) {
        while (n > 0) {
            const ssize_t w = ::write(fd_, p, n);
            if (w < 0) {
                if (errno == EINTR) continue;
                if (error_ == 0) error_ = errno;
                return false;
            }
            p += w;
            n -= static_cast<std::size_t>(w);
        }
        return true;
    }
    // Writes out the buffered bytes; false (with error() set) when a write failed.
    bool drain() {
        if (error_ != 0) return false;
        const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
        const bool ok = write_all(pbase(), n);
        setp(buf_, buf_ + sizeof buf_);
        return ok;
    }

    int fd_;
    int error_ = 0;
    char buf_[1 << 16];
};

// Runs `write` on a stream over `fd` (not closed here); throws naming `path` when the writer
// throws or a write fails.
void write_through(int fd, const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
    FdOutBuf buf(fd);
    std::ostream out(&buf);
    try {
        write(out);
        out.flush();
    } catch (const std::exception& e) {
        throw std::runtime_error("write_file_atomically: writer failed for '" + path.string() +
                                 "': " + e.what());
    } catch (...) {
        throw std::runtime_error("write_file_atomically: writer failed for '" + path.string() +
                                 "': unknown exception");
    }
    if (buf.error() != 0) fail_errno(path, "write error", buf.error());
    if (!out) fail(path, "write error", "the writer left the stream in a failed state");
}

// Writes the temporary file through `fd` (closed here in every case), fsyncs it and closes it.
void write_and_sync(int fd, const std::filesystem::path& path,
                    const std::function<void(std::ostream&)>& write) {
    try {
        write_through(fd, path, write);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        fail_errno(path, "fsync failed", err);
    }
    if (::close(fd) != 0) fail_errno(path, "close failed", errno);
}

// Best effort: persist the directory entry created by rename.
void fsync_directory(const std::filesystem::path& dir) {
    int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    (void)::close(fd);
}

bool same_file(const struct stat& st, int fd) {
    struct stat other {};
    return ::fstat(fd, &other) == 0 && other.st_dev == st.st_dev && other.st_ino == st.st_ino;
}

// Where the bytes for `path` go: a regular file (existing or not) is replaced under its real
// name, links followed, so that a link stays a link and its target gets the new contents;
// anything else that exists (device, pipe, socket) is written in place; "-" and the files
// of the standard output and standard error are written through those descriptors.
struct Destination {
    std::filesystem::path file;  // the name to replace (regular or missing), else `path`
    bool in_place = false;
    int std_fd = -1;  // 1 or 2: write through this descriptor
};

Destination resolve_destination(const std::filesystem::path& path) {
    if (path == "-") return {path, true, STDOUT_FILENO};
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        for (int fd : {STDOUT_FILENO, STDERR_FILENO})
            if (same_file(st, fd)) return {path, true, fd};
        if (S_ISDIR(st.st_mode))
            throw std::runtime_error("cannot write '" + path.string() + "': " + std::strerror(EISDIR));
        if (!S_ISREG(st.st_mode)) return {path, true, -1};
        char* real = ::realpath(path.c_str(), nullptr);
        if (real == nullptr) fail_errno(path, "cannot resolve the file's real name", errno);
        const std::filesystem::path file(real);
        std::free(real);
        return {file, false, -1};
    }
    if (errno != ENOENT)
        throw std::runtime_error("cannot write '" + path.string() + "': " + std::strerror(errno));
    // Missing, or a link to a missing file: follow the links to the name to create.
    std::filesystem::path file = path;
    for (int hops = 0;; ++hops) {
        struct stat lst {};
        if (::lstat(file.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) break;
        if (hops == 40) fail_errno(path, "cannot resolve", ELOOP);
        std::error_code ec;
        const std::filesystem::path target = std::filesystem::read_symlink(file, ec);
        if (ec) fail(path, "cannot read the link '" + file.string() + "'", ec.message());
        file = target.is_absolute() ? target : file.parent_path() / target;
    }
    return {file, false, -1};
}

// Opens an existing device, pipe or socket for writing. A FIFO is opened without blocking
// first: with no reader that fails (ENXIO) at once instead of waiting for one; with a reader
// it is switched back to blocking writes.
int open_in_place(const std::filesystem::path& path) {
    struct stat st {};
    const bool fifo = ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0));
    if (fd < 0 && fifo && errno == ENXIO)
        throw std::runtime_error("no reader on FIFO '" + path.string() + "': start its reader first");
    if (fd < 0) fail_errno(path, "cannot open", errno);
    if (fifo) {
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
            const int err = errno;
            ::close(fd);
            fail_errno(path, "cannot set blocking writes", err);
        }
    }
    return fd;
}

void write_in_place(const Destination& d, const std::filesystem::path& path,
                    const std::function<void(std::ostream&)>& write) {
    if (d.std_fd >= 0) {
        (d.std_fd == STDOUT_FILENO ? std::cout : std::cerr).flush();  // keep the order of the output
        write_through(d.std_fd, path, write);
        return;
    }
    const int fd = open_in_place(path);
    try {
        write_through(fd, path, write);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) fail_errno(path, "close failed", errno);
}

}  // namespace

bool writes_to_standard_output(const std::filesystem::path& path) {
    if (path == "-") return true;
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && same_file(st, STDOUT_FILENO);
}

WriteTarget write_target(const std::filesystem::path& path) {
    if (path == "-") return WriteTarget::in_place;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return WriteTarget::new_file;
    for (int fd : {STDOUT_FILENO, STDERR_FILENO})
        if (same_file(st, fd)) return WriteTarget::in_place;
    if (S_ISDIR(st.st_mode)) return WriteTarget::folder;
    return S_ISREG(st.st_mode) ? WriteTarget::existing_file : WriteTarget::in_place;
}

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write) {
    if (path.empty() || !path.has_filename())
        throw std::runtime_error("write_file_atomically: invalid destination path '" +
                                 path.string() + "'");
    const Destination dest = resolve_destination(path);
    if (dest.in_place) {
        write_in_place(dest, path, write);
        return;
    }
    const std::filesystem::path tmp = make_temp_path(dest.file);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail_errno(path, "cannot create temporary file '" + tmp.string() + "'", errno);
    try {
        write_and_sync(fd, path, write);
        std::error_code ec;
        std::filesystem::rename(tmp, dest.file, ec);
        if (ec) fail(path, "rename from '" + tmp.string() + "' failed", ec.message());
    } catch (...) {
        remove_quietly(tmp);
        throw;
    }
    fsync_directory(dest.file.parent_path());
}

void write_text_atomically(const std::filesystem::path& path, const std::string& text) {
    write_file_atomically(path, [&text](std::ostream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
}

}  // namespace skipstone::io
