# The fiber layer tells the sanitizers about every context switch (src/core/fiber.cpp);
# LOOM_SANITIZE_ADDRESS / LOOM_SANITIZE_THREAD select that code at compile time.
if(LOOM_SANITIZER STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(LOOM_SANITIZE_ADDRESS=1)
elseif(LOOM_SANITIZER STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
  add_compile_definitions(LOOM_SANITIZE_THREAD=1)
elseif(NOT LOOM_SANITIZER STREQUAL "")
  message(WARNING "LOOM_SANITIZER='${LOOM_SANITIZER}' is not one of '', address, thread; building without sanitizers")
endif()
