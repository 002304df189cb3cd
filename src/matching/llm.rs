//! LLM confirmation of fuzzy candidates. (Being written.)
