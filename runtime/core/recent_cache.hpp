// runtime/core/recent_cache.hpp — the last few values by key, most recent
// first; a hit becomes the most recent. For a worker's loaded modules,
// inputs and reference outputs, where "the same as a moment ago" is common
// and a few entries are all the memory allows.
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <utility>

namespace wb {

template <class T>
class RecentCache {
public:
    explicit RecentCache(std::size_t keep) : keep_(keep) {}
    const T* find(const std::string& key) {
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (it->first == key) {
                entries_.splice(entries_.begin(), entries_, it);
                return &entries_.front().second;
            }
        return nullptr;
    }
    void remember(std::string key, T value) {
        entries_.emplace_front(std::move(key), std::move(value));
        if (entries_.size() > keep_) entries_.pop_back();
    }

private:
    std::size_t keep_;
    std::list<std::pair<std::string, T>> entries_;
};

}  // namespace wb
