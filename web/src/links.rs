//! Share links: the one the page was opened with, and the ones it makes. A
//! link's fragment is the document, deflated by the browser
//! (`hiera_core::share` packs and reads it).

use hiera_core::share;

use crate::browser;
use crate::state::State;

/// Links longer than this are refused: chat tools and mail cut them.
pub const MAX_SHARE_URL: usize = 32_000;

/// The shared link the page was opened with, if any, read.
pub async fn opened_link() -> Option<Result<share::Shared, share::ShareError>> {
    let fragment = browser::fragment();
    if fragment.is_empty() {
        return None;
    }
    let read = async { share::read(browser::inflate_raw(&share::unpack(&fragment)?, share::MAX_EXPANDED).await) };
    Some(read.await)
}

/// What a link to a playground showing `state` packs.
pub fn shared_text(state: &State) -> String {
    share::text(&share::Shared { document: state.shareable(), open: state.open_file.clone(), selected: state.selected })
}

/// The address of a playground showing what `text` (see [`shared_text`])
/// holds.
pub async fn share_url(text: String) -> Result<String, String> {
    let packed = browser::deflate_raw(text.as_bytes()).await?;
    Ok(format!("{}#{}", browser::page_url(), share::fragment(&packed)))
}
