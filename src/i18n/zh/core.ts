// 核心层（core、ingest、share、CLI）给出的句子：与 en/core.ts 一一对应，占位符 {…} 与英文相同。
// 反引号中的值是代码（命令、库自己的报错原文），按代码显示。
import type { Messages } from '../types';
import type { core as en } from '../en/core';

export const core: Messages<typeof en> = {
  'said.english': '{text}',
  'said.end': '{what}。',

  'file.packed': '{file} 是 {packed} 压缩文件或归档文件；请先解压（或以 .gz/.zip/.tar.gz 格式拖入）',
  'file.binary': '{file} 不是文本文件（二进制内容），已跳过',
  'file.empty': '{file} 是空文件',
  'file.json': '{file} 是 JSON 文件，不是日志',
  'file.noTorch': '{file} 中没有 torchrun 或 torch.distributed 的日志行（已读取 {lines} 行）',
  'file.notErrorFile': '{file} 不是 torchelastic 错误文件（JSON 无法解析）',
  'file.unreadable': '无法读取此文件：`{reason}`',
  'file.unreadableSaid': '无法读取此文件：{reason}',
  'file.unreadableNamed': '{file}：`{reason}`',
  'file.parserStopped': '解析进程意外退出',
  'file.parserStoppedWhy': '解析进程意外退出（`{reason}`）',
  'file.workerHeap': '{file}：读取它需要超过解析进程可用的 {mib} MiB 内存；已跳过它，其他文件已分析',
  'file.workerStopped': '{file}：它的解析进程意外退出（`{reason}`）；已跳过它，其他文件已分析',
  'file.gone': '该文件已无法读取（拖入之后它被移动、修改或删除了）',

  'archive.damaged': '{archive} 已损坏：{what}',
  'archive.damagedRaw': '{archive} 已损坏：`{message}`（在读取 {bytes} 压缩数据之后）',
  'archive.cutShort': '{archive} 不完整：压缩数据提前结束（在 {bytes} 之后）',
  'archive.notGzip': '{archive} 不是 gzip 压缩数据（文件头不对）',
  'archive.badZip': '{archive} 不完整或已损坏（zip 数据无效）',
  'archive.endsInMember': '{archive} 不完整：在 {member} 的中间就结束了',
  'archive.noFiles': '{archive} 中没有可读取的文件（只有文件夹、链接或元数据）。',
  'archive.inflatesPast': '{archive} 解压后超过 {max}（已读取 {read}），超出日志归档应有的大小；已在此处停止读取',
  'archive.bombRatio':
    '{archive} 的解压比达到 {ratio}:1（由已读取的 {read} 解压出 {inflated}），远超日志的压缩比：这是解压炸弹，已停止读取',
  'archive.tooMany': '{archive} 中的文件超过 {max} 个；已在此处停止读取',
  'archive.notAnalysed': '未分析：{what}。',
  'archive.zipMethod':
    '未分析：此文件用 {method} 压缩（ZIP 压缩方法 {code}），skewscope 在浏览器中无法读取；请先解压。',
  'archive.zipEncrypted': '未分析：此文件经 AES 加密（ZIP 压缩方法 {code}），skewscope 在浏览器中无法读取；请先解压。',
  'archive.zipMethodOf': '{archive} 对 {member} 使用了 ZIP 压缩方法 {code}，skewscope 无法读取',
  'archive.emptyZip': '{archive} 是空的 zip 归档',
  'archive.gzipNotZip': '{archive} 不是 zip 归档，而是 gzip 数据；请把它重命名为 .gz（或 .tar.gz）',
  'archive.notZip': '{archive} 不是 zip 归档（其中没有找到任何文件条目）',
  'tar.paxMalformed': '一个 pax 扩展头格式错误',
  'tar.empty': '归档是空的',
  'tar.tooShort': '这不是 tar 归档（只有 {bytes} 字节，不足一个 tar 头）',
  'tar.endsInMember': '归档在 {member} 的中间就结束了（{size} 字节中只有 {done} 字节）',
  'tar.endsInHeader': '归档在一个文件头的中间结束（第 {at} 字节）',
  'tar.noFiles': '归档中没有文件（开头就是归档结束块）',
  'tar.headerDamaged': '第 {at} 字节处的文件头已损坏（校验和不匹配）',
  'tar.notTar': '这不是 tar 归档（第一个文件头的校验和无效）',
  'tar.badSize': '第 {at} 字节处的文件头中的大小无效',
  'tar.metaTooLarge': '第 {at} 字节处的 {kind} 头过大',

  'digest.cut': '{file} 是一份不完整的 skewscope 摘要（JSON 提前结束）：请重新复制',
  'digest.damaged': '{file} 是一份已损坏的 skewscope 摘要（JSON 无法解析）',
  'digest.notOne': '{file} 开头像 skewscope 摘要，但并不是',
  'digest.noVersion': '{file} 是 skewscope 摘要，但没有有效的格式版本号',
  'digest.newer':
    '{file} 是格式 {version} 的摘要，由 {producer} 生成；当前 skewscope 只能读取格式 {reads}：请升级 skewscope 后再分析',
  'digest.newerUnknown':
    '{file} 是格式 {version} 的摘要，生成它的 skewscope 版本未知；当前 skewscope 只能读取格式 {reads}：请升级 skewscope 后再分析',
  'digest.older': '{file} 是格式 {version} 的摘要，当前 skewscope 已不再支持（它读取格式 {reads}）；请重新生成',
  'digest.noCheck': '{file} 是 skewscope 摘要，但缺少校验和（被截断或编辑过）',
  'digest.changed': '{file} 在 skewscope 生成之后被修改过（校验和与内容不符）；未分析',
  'digest.invalid': '{file} 不是有效的 skewscope 摘要：`{detail}`',
  'digest.invalidShape': '{file} 不是有效的 skewscope 摘要：内容不符合摘要格式',
  'digest.twice': '{file} 不是有效的 skewscope 摘要：其中 {member} 出现了两次',
  'digest.tooLarge': '{file} 比任何 skewscope 摘要都大（超过 {mib} MiB）；未读取',

  'lines.memberTooLarge': '{member} 解压后大于 {mib} MiB；请先解压归档再浏览',
  'lines.memberMissing': '在 {archive} 中没有找到 {member}',
  'lines.stopped': '读取日志行的进程意外退出',
  'lines.stoppedWhy': '读取日志行的进程意外退出（`{reason}`）',
} as const;
