#pragma once
// Dims: a shape or a stride list. Inline storage for the usual ranks so that making an
// array view allocates nothing beyond the view itself; heap storage past that.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string>

namespace tessera {

// NumPy 2's limit on array rank.
inline constexpr int kMaxDims = 64;

class Dims {
 public:
  Dims() = default;
  explicit Dims(int n, int64_t value = 0) { resize(n, value); }
  Dims(std::initializer_list<int64_t> values) {
    resize(static_cast<int>(values.size()));
    std::copy(values.begin(), values.end(), data());
  }
  template <std::input_iterator It>
  Dims(It first, It last) {
    resize(static_cast<int>(std::distance(first, last)));
    std::copy(first, last, data());
  }
  // Copies write only the entries: every array view copies two Dims, so they stay cheap.
  Dims(const Dims& o) { *this = o; }
  Dims& operator=(const Dims& o) {
    if (this != &o) {
      if (o.size_ > capacity_) {
        heap_.reset(new int64_t[o.size_]);
        capacity_ = o.size_;
      }
      size_ = o.size_;
      std::copy(o.begin(), o.end(), data());
    }
    return *this;
  }
  Dims(Dims&& o) noexcept { *this = std::move(o); }
  Dims& operator=(Dims&& o) noexcept {
    if (this != &o) {
      if (o.heap_) {
        heap_ = std::move(o.heap_);
        capacity_ = o.capacity_;
        size_ = o.size_;
      } else {
        heap_.reset();
        capacity_ = kInline;
        size_ = o.size_;
        std::copy(o.inline_, o.inline_ + o.size_, inline_);
      }
      o.size_ = 0;
      o.capacity_ = kInline;
    }
    return *this;
  }

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t* data() { return heap_ ? heap_.get() : inline_; }
  const int64_t* data() const { return heap_ ? heap_.get() : inline_; }
  int64_t* begin() { return data(); }
  int64_t* end() { return data() + size_; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size_; }
  int64_t& operator[](int i) { return data()[i]; }
  int64_t operator[](int i) const { return data()[i]; }
  int64_t back() const { return data()[size_ - 1]; }

  void resize(int n, int64_t value = 0) {
    reserve(n);
    std::fill(data() + std::min(n, size_), data() + n, value);
    size_ = n;
  }
  void push_back(int64_t v) {
    reserve(size_ + 1);
    data()[size_++] = v;
  }
  void insert(int pos, int64_t v) {
    reserve(size_ + 1);
    int64_t* d = data();
    std::copy_backward(d + pos, d + size_, d + size_ + 1);
    d[pos] = v;
    ++size_;
  }
  void erase(int pos) {
    int64_t* d = data();
    std::copy(d + pos + 1, d + size_, d + pos);
    --size_;
  }

  // Product of the entries (the element count of a shape).
  int64_t product() const {
    int64_t p = 1;
    for (int64_t v : *this) p *= v;
    return p;
  }
  std::string str() const;  // "(2, 3)" as Python prints a tuple

  friend bool operator==(const Dims& a, const Dims& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  static constexpr int kInline = 6;
  void reserve(int n) {
    if (n <= capacity_) return;
    int cap = std::max(n, capacity_ * 2);
    std::unique_ptr<int64_t[]> grown(new int64_t[cap]);
    std::copy(data(), data() + size_, grown.get());
    heap_ = std::move(grown);
    capacity_ = cap;
  }

  int64_t inline_[kInline];  // entries [0, size_) are set; the rest are never read
  std::unique_ptr<int64_t[]> heap_;
  int size_ = 0;
  int capacity_ = kInline;
};

}  // namespace tessera
